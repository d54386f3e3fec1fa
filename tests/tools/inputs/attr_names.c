/* Custom attribute names (--coroutine-attr co --blocking-attr nb), written
   as unknown GNU attributes: Clang drops them, the spelling is read. */
#pragma clang diagnostic ignored "-Wunknown-attributes"
void __attribute__((co)) co_yield(void);
void __attribute__((nb)) sleep_ms(int ms);
void __attribute__((co)) loop(void) { co_yield(); sleep_ms(1); }
void drive(void) { loop(); }
