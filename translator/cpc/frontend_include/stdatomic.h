/* <stdatomic.h> as the front-end (Clang, through libclang) reads it: Clang's own
 * header, whose generic functions take their object as given to its __c11_atomic_*
 * builtins, which refuse an object that is not _Atomic.  gcc's header (the one the
 * generated C is compiled with) takes any object of a suitable type, as C programs
 * written for gcc do (`int x; atomic_exchange(&x, 1)`).  So the object operations
 * here convert their pointer to a pointer to the _Atomic version of its type (the
 * comma drops the qualifiers, _Atomic included, as in gcc's header); the program's
 * text itself is never changed, and a rendering of the expanded code goes through
 * reprint.py, which writes gcc's builtins.  Only the front-end reads this file. */
#include_next <stdatomic.h>

#ifndef CPC_FRONTEND_STDATOMIC_H
#define CPC_FRONTEND_STDATOMIC_H

#define __cpc_atomic_object(object) ((_Atomic(__typeof__((void)0, *(object))) *)(object))

#undef atomic_store
#define atomic_store(object, desired) __c11_atomic_store(__cpc_atomic_object(object), desired, __ATOMIC_SEQ_CST)
#undef atomic_store_explicit
#define atomic_store_explicit(object, desired, order) __c11_atomic_store(__cpc_atomic_object(object), desired, order)

#undef atomic_load
#define atomic_load(object) __c11_atomic_load(__cpc_atomic_object(object), __ATOMIC_SEQ_CST)
#undef atomic_load_explicit
#define atomic_load_explicit(object, order) __c11_atomic_load(__cpc_atomic_object(object), order)

#undef atomic_exchange
#define atomic_exchange(object, desired) __c11_atomic_exchange(__cpc_atomic_object(object), desired, __ATOMIC_SEQ_CST)
#undef atomic_exchange_explicit
#define atomic_exchange_explicit(object, desired, order) __c11_atomic_exchange(__cpc_atomic_object(object), desired, order)

#undef atomic_compare_exchange_strong
#define atomic_compare_exchange_strong(object, expected, desired) __c11_atomic_compare_exchange_strong(__cpc_atomic_object(object), expected, desired, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)
#undef atomic_compare_exchange_strong_explicit
#define atomic_compare_exchange_strong_explicit(object, expected, desired, success, failure) __c11_atomic_compare_exchange_strong(__cpc_atomic_object(object), expected, desired, success, failure)

#undef atomic_compare_exchange_weak
#define atomic_compare_exchange_weak(object, expected, desired) __c11_atomic_compare_exchange_weak(__cpc_atomic_object(object), expected, desired, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)
#undef atomic_compare_exchange_weak_explicit
#define atomic_compare_exchange_weak_explicit(object, expected, desired, success, failure) __c11_atomic_compare_exchange_weak(__cpc_atomic_object(object), expected, desired, success, failure)

#undef atomic_fetch_add
#define atomic_fetch_add(object, operand) __c11_atomic_fetch_add(__cpc_atomic_object(object), operand, __ATOMIC_SEQ_CST)
#undef atomic_fetch_add_explicit
#define atomic_fetch_add_explicit(object, operand, order) __c11_atomic_fetch_add(__cpc_atomic_object(object), operand, order)

#undef atomic_fetch_sub
#define atomic_fetch_sub(object, operand) __c11_atomic_fetch_sub(__cpc_atomic_object(object), operand, __ATOMIC_SEQ_CST)
#undef atomic_fetch_sub_explicit
#define atomic_fetch_sub_explicit(object, operand, order) __c11_atomic_fetch_sub(__cpc_atomic_object(object), operand, order)

#undef atomic_fetch_or
#define atomic_fetch_or(object, operand) __c11_atomic_fetch_or(__cpc_atomic_object(object), operand, __ATOMIC_SEQ_CST)
#undef atomic_fetch_or_explicit
#define atomic_fetch_or_explicit(object, operand, order) __c11_atomic_fetch_or(__cpc_atomic_object(object), operand, order)

#undef atomic_fetch_xor
#define atomic_fetch_xor(object, operand) __c11_atomic_fetch_xor(__cpc_atomic_object(object), operand, __ATOMIC_SEQ_CST)
#undef atomic_fetch_xor_explicit
#define atomic_fetch_xor_explicit(object, operand, order) __c11_atomic_fetch_xor(__cpc_atomic_object(object), operand, order)

#undef atomic_fetch_and
#define atomic_fetch_and(object, operand) __c11_atomic_fetch_and(__cpc_atomic_object(object), operand, __ATOMIC_SEQ_CST)
#undef atomic_fetch_and_explicit
#define atomic_fetch_and_explicit(object, operand, order) __c11_atomic_fetch_and(__cpc_atomic_object(object), operand, order)

#endif
