"""The shape of the generated C: the calling convention of
runtime/include/cpc/cpc_runtime.h and docs/abi.md, one function per generated
item.  Everything here maps names and C text (declarations, expressions,
already rendered by the emitter) to C text; nothing reads the AST.

For a cps function `f` with parameters `T1 p1, ...`:
  struct f__args     the arguments of a deferred call (`f__defer`, `f__bounce`)
  struct f__frame    the variables live across its calls, one per invocation
  union f__reserve   the room the entry reserves: the frame or the result
  f__cps             the entry: spends call budget, or defers
  f__defer, f__bounce   the cold way through the trampoline (f__deferral, read
                     by the runtime's cpc_deferN, instead of f__defer for at most
                     four integer or pointer parameters)
  f__body            the user's body, with `switch (cpc_resume)` when it has
                     resume points; named `f` in the C (the symbol is f.body,
                     which no C name can take, and valgrind and perf show: `body_name`)
  f__resume_N        the resume functions (continuation entries)
  F__spawn_N__start  the thunk a spawned call starts with
"""

import re

from .preamble import cps_fn


K_PARAM = 'cpc_continuation *cpc_k'

FUNCTION_NAMES = ('__func__', '__FUNCTION__', '__PRETTY_FUNCTION__')


def function_name_macros(user_name):
    """(#defines, #undefs) around a cps function's generated code, so that
    `__func__` and gcc's `__FUNCTION__` and `__PRETTY_FUNCTION__` (in the
    user's code and in the macros it expands, such as `assert`) name the
    user's function rather than `f__body` or `f__cps`."""
    lit = '"%s"' % user_name
    return ('\n' + ''.join('#define %s %s\n' % (n, lit) for n in FUNCTION_NAMES),
            ''.join('#undef %s\n' % n for n in FUNCTION_NAMES))


def entry_name(name):
    return '%s__cps' % name


def unprototyped(storage, name):
    """The entry's declaration for an unprototyped cps function: as in C,
    the arguments of its calls are not checked against it."""
    return '%scpc_continuation *%s()' % (storage, entry_name(name))


def prototype(storage, name, pdecls):
    """The entry's prototype (`storage`: '', 'static ' or 'extern ', and the entry's
    attributes)."""
    return '%scpc_continuation *%s(%s)' % (storage, entry_name(name), k_params(pdecls))


def spawn_args_name(name):
    """The arguments of spawn thunk `name` (a struct tag distinct from an
    outlined spawned statement's function `name`)."""
    return name + '__start_args'


def frame_name(name):
    return '%s__frame' % name


def k_params(pdecls):
    return ', '.join([K_PARAM] + pdecls)


def body_params(bdecls):
    return ', '.join([K_PARAM, 'int cpc_resume'] + bdecls)


class Placed(str):
    """Generated text attributed to a source line of its own (`directive`,
    a #line), not to the line of the function it is emitted before: the
    prototype of a cps function declared in a header stands at the
    header's declaration, where gcc's notes about its parameters then
    point."""

    def __new__(cls, text, directive):
        placed = str.__new__(cls, text)
        placed.directive = directive
        return placed


def placed_lines(directive, pieces):
    """Generated pieces, each after the #line it is attributed to: its own
    (Placed) or `directive`."""
    out = []
    for p in pieces:
        line = getattr(p, 'directive', directive)
        out.append(line + '\n' + pin(line, p.split('\n')) + '\n')
    return ''.join(out)


def pin(directive, lines):
    """Generated lines joined so that all of them are attributed to one
    source line, the line the first is written on: as one physical line,
    which debuggers see as one line for the whole construct (a call site,
    a spawn, a helper function).  Where a piece cannot be followed on its
    line (it ends a `//` comment of the program's text, or the next piece
    is a preprocessor directive), the next goes on a new line after
    `directive` (a #line naming the first line)."""
    out = [lines[0]]        # (joined once: a dispatch has a line per resume point)
    for prev, line in zip(lines, lines[1:]):
        s = line.strip()
        if '//' in prev or '\n' in prev or s.startswith('#'):
            out += ['\n', directive, '\n', line]
        elif s:
            out += [' ', s]
    return ''.join(out)


def call(fn, args):
    """`fn(cpc_k, args...)`."""
    return '%s(%s)' % (fn, ', '.join(['cpc_k'] + args))


# -- structures (between CPC_FRAMES_BEGIN and CPC_FRAMES_END)

def frames_block(frames):
    return 'CPC_FRAMES_BEGIN\n' + '\n'.join(frames) + '\nCPC_FRAMES_END\n'


def args_struct(name, pfields):
    return 'struct %s__args { %s };' % (name, ' '.join(pfields + ['cpc_function *cpc_fn;']))


def frame_struct(name, fields, dispatched=False):
    """The frame: the variables `fields`, then, for a body whose resume
    points go through one dispatch function per chunk (`dispatched`, see
    dispatch), the resume point the frame waits at, cpc_point, the word
    below cpc_fn (where the gdb extension reads it), and cpc_fn last."""
    point = ['long cpc_point;'] if dispatched else []
    return 'struct %s { %s };' % (frame_name(name),
                                  ' '.join(fields + point + ['cpc_function *cpc_fn;']))


# The untimed cpc_wait of a function whose entry reserved the wait's record
# (reserve_union): it skips the room test (cpc_runtime.h).
WAIT_RESERVED = 'cpc_wait_reserved__cps'


def reserve_union(name, has_frame, ret_field, wait=False):
    """(the union's definition or None, the room the entry reserves).
    `wait`: the function, which has a frame, calls cpc_wait (WAIT_RESERVED):
    the room holds the wait's record above the frame too."""
    members = ['struct %s f;' % frame_name(name)] if has_frame else []
    if wait:
        members.append('struct { struct %s f; char w[CPC_WAIT_RECORD]; } w;' % frame_name(name))
    if ret_field is not None:
        members.append(ret_field + ';')
    if not members:
        return None, '0'
    return ('union %s__reserve { %s };' % (name, ' '.join(members)),
            'sizeof(union %s__reserve)' % name)


# -- the functions around the body

def entry_prototype(name, pdecls, lead, label=False):
    """The entry's prototype; `lead`: its storage class and attributes.
    With `label`, it names the symbol, F.cps (`symbol`): only for an entry
    no C code of the user's names, a spawned statement's outlined function,
    as the entry's symbol F__cps is what other C code calls (docs/abi.md)."""
    return '%sCPC_CPS_FN cpc_continuation *%s(%s)%s' % (
        lead, entry_name(name), k_params(pdecls),
        ' __asm__("%s")' % symbol(name, 'cps') if label else '')


def without_warning(option, text):
    """text (C of one line) with gcc's warning `option` off: a generated
    declaration that is needed although gcc would warn about it."""
    return ('_Pragma("GCC diagnostic push") _Pragma("GCC diagnostic ignored \\"%s\\"") '
            '%s _Pragma("GCC diagnostic pop")' % (option, text))


# `code` in what follows: the attributes of the function's code
# (`__attribute__((target("avx2"))) `, or ''), which every function made of
# it takes.

def body_name(name, own=True):
    """The C name of the function holding cps function `name`'s code: `name`
    itself when `own`, so that the debug information gives it the user's
    name and gdb's own views (breakpoints, signal stops, `frame`, `finish`,
    `break f`) and gcc's messages name the user's function; its symbol is
    `name.body` (an asm label, of a static function: no C name, so no other
    symbol of the file, can be spelt so; valgrind and perf show it).
    Not `own` where the C declares `name` otherwise (a header declaring the
    function, included as written; a deprecated function's native
    declaration, `use_declaration`): then it is `name__body`."""
    return name if own else '%s__body' % name


SPAWN_PART_RE = re.compile(r'__spawn_(\d+)(?=__|$)')


def symbol(name, *part):
    """The symbol of a static function generated for cps function `name`,
    `part` its kind and number: ('body',) -> `name.body`, ('resume', 3) ->
    `name.resume.3`, ('body', 2) -> `name.body.2` (a later chunk), `bounce`,
    `defer`, `dispatch`, a spawn thunk's `start`; a spawned statement
    outlined from F, F__spawn_N, is `F.spawn.N`.  gcc's own names for the
    parts it makes of a function (`f.cold`, `f.part.0`, `f.constprop.0`)
    look so, and nm, perf and valgrind, which name code by its symbol, show
    the user's function and what part of it runs.  No C name can be spelt
    with a dot, so no other symbol of the file takes one.  The C name (which
    the debug information, and so gdb and the sanitizers, keep) stays the
    generated one, F__resume_3: the symbol is an asm label on a prototype
    (`labelled`), as C allows none on a definition."""
    return '.'.join([SPAWN_PART_RE.sub(r'.spawn.\1', name)] + [str(p) for p in part])


def labelled(cname, sym):
    """The prototype giving static function `cname`, a cpc_function (takes
    the continuation, returns one), the symbol `sym` (the definition after
    it adds its attributes)."""
    return 'static cpc_function %s __asm__("%s");\n' % (cname, sym)


# How much source text (bytes) may be copied into the body's callers
# when the body is declared `inline`: its entry and each resume
# function may get a copy of it (inline_body).
INLINE_BODY_BUDGET = 8192


def inline_body(body_bytes, resume_points):
    """Whether the body of a function whose body has `body_bytes` bytes of
    source and `resume_points` resume points is declared `inline`: only
    while the copies gcc may make of it (one in the entry and one in each
    resume function), with one copy more as a margin, stay within
    INLINE_BODY_BUDGET: the threshold at which gcc's time was measured
    (below) counts that many, and moving it moves which bodies are copied.
    A larger body is `noinline`: its callers call it, and gcc compiles one
    copy (QEMU's block/qcow2.c: 1.16 -> 0.86 s of gcc's CPU on the
    generated C; a copy per resume point also made the code of each
    function grow with the square of its resume points)."""
    return body_bytes * (resume_points + 2) <= INLINE_BODY_BUDGET


def body_prototype(name, body, bdecls, code='', resumes=True, definition=False, inline=True,
                   large=False):
    """The prototype of the body `body` (`body_name`) of cps function `name`
    (its definition's head when `definition`: the symbol is named on the
    prototype before it, as C allows no asm label on a definition); a body
    without resume points takes no cpc_resume.

    A body is `inline` (when `inline`, see inline_body), a hint that raises
    gcc's limit for inlining it into the entry and the resume functions: a
    resume function then runs the rest of the body without a call, whose
    saved registers every switch would pay; the direct return's code at
    each exit (cpc_resume_caller) otherwise tips many small bodies over
    gcc's limit for functions not so declared.  (A body with many resume
    points has unoptimised resume stubs, which inline nothing.)  A `large`
    body is CPC_LARGE_FN (large_body)."""
    params = body_params(bdecls) if resumes else k_params(bdecls)
    label = ' __asm__("%s")' % symbol(name, 'body') if body == name and not definition else ''
    how = 'inline ' if inline else '__attribute__((noinline)) '
    return 'static %s%s%s cpc_continuation *%s(%s)%s' % (how, code, cps_fn(large), body, params,
                                                        label)


def resume(name, index, zeros, code='', body=None, chunk=1):
    """The continuation entry of resume point `index` of a body with few
    resume points: re-enters the body (`body`, by default
    `body_name(name)`) there, or a chunk K > 1 of a chunked body (chunks.py),
    F__body_K, which takes no parameters.  (A body with many has one
    `dispatch` per chunk instead.)"""
    target = (body or body_name(name)) if chunk == 1 else chunk_function(name, chunk)
    args = ['cpc_k', str(index)] + (zeros if chunk == 1 else [])
    stub = '%s__resume_%d' % (name, index)
    return labelled(stub, symbol(name, 'resume', index)) + (
        'static %sCPC_RESUME_FN CPC_CPS_FN cpc_continuation *%s('
        'cpc_continuation *cpc_k)\n{\n    return %s(%s);\n}' % (
            code, stub, target, ', '.join(args)))


def dispatch_name(name, chunk=1):
    """The dispatch function of chunk `chunk` of cps function `name`'s body
    (see dispatch): F__dispatch for the body (chunk 1), F__dispatch_K."""
    return '%s__dispatch' % name if chunk == 1 else '%s__dispatch_%d' % (name, chunk)


def dispatch(name, zeros, code='', body=None, chunk=1):
    """The one continuation entry of the resume points of chunk `chunk` of
    a body with many of them (a stable frame), in place of a resume
    function F__resume_N each: the call site stores its resume point in
    the frame (cpc_point) beside this function (cpc_fn), and the dispatch
    re-enters the chunk there.  gcc's fixed cost per function, paid for
    each of 10,000 stubs, was a fifth of its CPU on a 10,000-line cps
    function (bench/translator func10k: 13.1 -> 10.3 s, 464 -> 329 MB).
    Compiled without optimisation (CPC_RESUME_STUB): on a body too large
    to inline, optimising it would only make its `call; ret` a jump.
    Arguments as `resume`'s."""
    target = (body or body_name(name)) if chunk == 1 else chunk_function(name, chunk)
    args = ['cpc_k', '(int)CPC_TOP(cpc_k, struct %s)->cpc_point' % frame_name(name)] + \
        (zeros if chunk == 1 else [])
    part = ('dispatch',) if chunk == 1 else ('dispatch', chunk)
    return labelled(dispatch_name(name, chunk), symbol(name, *part)) + (
        'static %sCPC_RESUME_STUB cpc_continuation *%s(cpc_continuation *cpc_k)\n{\n'
        '    return %s(%s);\n}' % (code, dispatch_name(name, chunk), target, ', '.join(args)))


def resume_lines(name, lines):
    """The line where each resume point N (1, 2, ...) of function `name`
    is written, for gdb's views of a waiting thread: where the label
    F__resumed_N is, at any optimisation level (inlined into its resume
    stub, the label keeps no address).  Data only: the gdb extension
    (tools/gdb/cpc-gdb.py) reads it, the program does not."""
    return 'static const unsigned %s__lines[%d] __attribute__((used)) = { 0, %s };' % (
        name, len(lines) + 1, ', '.join(str(n) for n in lines))


def resident_names(name, names):
    """The variables of function `name` that live in its frame, read and
    written there in place (--dataflow=frame), for gdb's views: its
    parameters' C values and its locals' C declarations are not theirs.
    Data only, as resume_lines."""
    return 'static const char %s__resident[] __attribute__((used)) = "%s";' % (
        name, ' '.join(names))


def bounce(name, pnames, code='', kept=False):
    """Runs a deferred call from the trampoline: pops its arguments and
    calls the entry again, which now finds its budget (the trampoline
    renews it) and its room (f__defer reserved it).  The bounce is cold and
    calls the entry, not the body: a body inlined into the bounce was a
    second copy of the function's code for gcc to compile (QEMU's block.c:
    8 % of the object's code, 4 % of gcc's CPU)."""
    pop = ('    struct %s__args *cpc_a = CPC_POP(cpc_k, struct %s__args);\n' % (name, name)
           if pnames else '    (void)CPC_POP(cpc_k, struct %s__args);\n' % name)
    return labelled(name + '__bounce', symbol(name, 'bounce')) + (
            'static %sCPC_COLD %sCPC_CPS_FN cpc_continuation *%s__bounce('
            'cpc_continuation *cpc_k)\n{\n%s'
            '    return %s(%s);\n}' % (
                code, 'CPC_KEPT ' if kept else '', name, pop, entry_name(name),
                ', '.join(['cpc_k'] + ['cpc_a->' + n for n in pnames])))


def defer(name, pdecls, need, copies, code=''):
    """The cold path of the entry: reserves room, pushes the arguments
    (`copies`: statements storing each parameter into cpc_a), and returns
    to the trampoline, which calls f__bounce."""
    head = 'cpc_continuation *%s__defer(%s)' % (name, k_params(pdecls))
    return ('static %s __asm__("%s");\n' % (head, symbol(name, 'defer')) +
            'static %sCPC_COLD %s\n{\n'
            '    struct %s__args *cpc_a;\n'
            '    cpc_k = cpc_reserve(cpc_k, CPC_MAX(sizeof(struct %s__args), %s));\n'
            '    cpc_a = CPC_PUSH_RESERVED(cpc_k, struct %s__args);\n'
            '%s'
            '    cpc_a->cpc_fn = %s__bounce;\n'
            '    return cpc_k;\n}' % (
                code, head, name, name, need, name,
                ''.join('    %s\n' % c for c in copies), name))


# The shared deferred path (docs/abi.md, "Deferred entry"): a function whose
# parameters are at most this many integers or pointers has no f__defer;
# its entry passes them as words to the runtime's cpc_deferN with its
# `f__deferral`.  One function less per cps function for the C compiler,
# whose fixed cost per function is most of what it spends on a small
# one (QEMU's block.c: 66 of its 81 cps functions).
SHARED_DEFER_MAX = 4


def deferral(name, pnames, need):
    """The description of f's deferred entry that the runtime's shared
    deferred path reads (cpc_deferral): the bounce, the reservation, and
    each parameter's field in struct f__args."""
    args = 'struct %s__args' % name
    offsets = ', '.join('__builtin_offsetof(%s, %s)' % (args, n) for n in pnames) or '0'
    widths = ', '.join('sizeof(((%s *)0)->%s)' % (args, n) for n in pnames) or '0'
    return ('static const cpc_deferral %s__deferral = { %s__bounce, %s, sizeof(%s), %d, '
            '{ %s }, { %s } };' % (name, name, need, args, len(pnames), offsets, widths))


def budget(name, need, pnames, leaf=False, words=None):
    """The entry's first statement: spend one unit of the call budget and
    check the reserved room, or defer: through f__defer, or, given `words`
    (each parameter converted to cpc_word), through the runtime's shared
    cpc_deferN, the parameters in the registers they came in and the
    description last (`deferral`).  A leaf (a function that makes no
    cps call) spends no budget: the budget bounds the C frames that direct
    calls and returns nest, and a leaf nests one, calls nothing further,
    and its return spends a unit as every return does (docs/abi.md,
    "Leaf functions").  It still checks the room for its return value,
    which gcc folds away when there is none; its bounce is then kept
    (CPC_KEPT), since debuggers know a cps function by its F__bounce."""
    if words is not None:
        call = 'cpc_defer%d(%s)' % (len(words), ', '.join(['cpc_k'] + words +
                                                           ['&%s__deferral' % name]))
    else:
        call = '%s__defer(%s)' % (name, ', '.join(['cpc_k'] + pnames))
    return ('    if (!%s(cpc_k, %s))\n'
            '        return %s;\n') % ('cpc_enter_leaf' if leaf else 'cpc_enter', need, call)


def entry_calling_body(name, body, pdecls, lead, need, pnames, resumes=True, leaf=False,
                       words=None):
    """The entry: spends the budget (unless `leaf`) and calls the body
    `body` (from its start: cpc_resume 0 when it has resume points)."""
    return (entry_prototype(name, pdecls, lead) + '\n{\n' +
            budget(name, need, pnames, leaf, words) +
            '    return %s(%s);\n}' % (body, ', '.join(['cpc_k'] + (['0'] if resumes else []) +
                                                    pnames)))


# A body with more resume points than this reaches its frame once per
# invocation (`stable_frame`), not at each call site and resume point: gcc's
# value numbering follows each load of the continuation's length back
# through every resume point it may come from, and compiling a body with N
# of them took time in N squared (a 2,000-line function with a call on
# every line: 45 s of gcc -O2 against 4 s).  Below it, the frame address is
# recomputed where it is used, which keeps the hot path of small functions
# free of a saved register.
STABLE_FRAME_SITES = 32


def stable_frame(n_sites):
    return n_sites > STABLE_FRAME_SITES


def body_opening(name, indexes, push, frame_ptr, stable=False):
    """The start of f__body: the frame pointer cpc_f, when `frame_ptr`
    (one for the whole body, declared before the jumps to the resume
    points, so that call sites declare nothing), the dispatch to the resume
    points, then the push of the invocation's frame (`push`: statements).
    With a `stable` frame, the dispatch sets cpc_f to the frame, once."""
    dispatch = '    struct %s *cpc_f;\n' % frame_name(name) if frame_ptr or stable else ''
    if stable:
        dispatch += '    if (cpc_resume) cpc_f = CPC_TOP(cpc_k, struct %s);\n' % frame_name(name)
    dispatch += '    switch (cpc_resume) {\n%s    }\n' % ''.join(
        '    case %d: goto %s__resumed_%d;\n' % (i, name, i) for i in indexes)
    dispatch += '    { /* the frame of this invocation */\n%s    }\n' % ''.join(
        '        %s\n' % x for x in push)
    return dispatch


def frame_push(name, copies, first_resume, stable=False, keep=False):
    """The statements pushing the frame at entry, storing `copies` (the
    parameters the body never assigns) and cpc_fn when there is one
    resume point (`first_resume`, else None); a `stable` frame's address
    stays in cpc_f, and its cpc_fn is F__dispatch, the dispatch function
    of chunk 1, which holds resume points (chunks.plan cuts after 64 or
    more): its call sites store cpc_point alone (call_site).  With `keep`
    (frame-resident variables), cpc_f is set whatever else is stored."""
    fr = frame_name(name)
    push = ['cpc_f = CPC_PUSH_RESERVED(cpc_k, struct %s);' % fr] + copies
    if first_resume is not None:
        push.append('cpc_f->cpc_fn = %s__resume_%d;' % (name, first_resume))
    elif stable:
        push.append('cpc_f->cpc_fn = %s;' % dispatch_name(name))
    if len(push) == 1 and not stable and not keep:
        push = ['(void)CPC_PUSH_RESERVED(cpc_k, struct %s);' % fr]
    return push


# -- a chunked body (chunks.py): chunk 1 is F__body, chunk K > 1 F__body_K

def chunk_function(name, number):
    """Chunk `number` > 1 of a chunked body (chunk 1 is the body, `body_name`)."""
    assert number > 1
    return '%s__body_%d' % (name, number)


def chunk_prototype(name, number, code='', label=False):
    """The head of chunk `number`'s function (with `label`, its prototype,
    which names the symbol, F.body.K).  (A chunked body is large:
    large_body.)"""
    return 'static %sCPC_LARGE_FN cpc_continuation *%s(cpc_continuation *cpc_k, int cpc_resume)%s' % (
        code, chunk_function(name, number),
        ' __asm__("%s")' % symbol(name, 'body', number) if label else '')


def chunk_head(name, number, code, decls, indexes, restores):
    """The opening of chunk `number`, on one line: the frame, the
    declarations `decls` (the parameters and the variables of the chunks
    before: (declaration without `;`, initialiser or None)), the dispatch to the chunk's
    resume points, and, entered from the chunk before (cpc_resume 0), the
    `restores` of the variables it carries and the store of the chunk's
    dispatch function in cpc_fn, once for all its call sites (call_site)."""
    fn = ['cpc_f->cpc_fn = %s;' % dispatch_name(name, number)] if indexes else []
    return (chunk_prototype(name, number, code) +
            ' { struct %s *cpc_f = CPC_TOP(cpc_k, struct %s); ' % (frame_name(name),
                                                                   frame_name(name)) +
            ''.join('%s __attribute__((unused))%s; ' % (d, ' = ' + i if i else '')
                    for d, i in decls) +
            'switch (cpc_resume) { %s} ' % ''.join(
                'case %d: goto %s__resumed_%d; ' % (i, name, i) for i in indexes) +
            ' '.join(restores + fn))


def chunk_end(ends_line, name, number, stores, closing_line):
    """The end of the chunk before chunk `number`: the variables it carries
    stored (`stores`), on into the next chunk, and the closing brace, on
    the function's closing line (directive `closing_line`), as the body's
    epilogue where its returns go."""
    code = '{ %sreturn %s(cpc_k, 0); } }\n' % (''.join(x + ' ' for x in stores),
                                               chunk_function(name, number))
    return ('' if ends_line else '\n') + closing_line + '\n    ' + code


def body_end(ends_line, drop_stmt):
    """Falling off the end of the body, and the closing brace, on the line
    of the user's closing brace (the epilogue, where every return goes, is
    attributed to the brace)."""
    tail = '    %sreturn cpc_resume_caller(cpc_k); }' if ends_line else \
        ' %sreturn cpc_resume_caller(cpc_k); }'
    return tail % drop_stmt


# -- statements inside the body

def drop(frame):
    """The statement popping the frame `frame` (a struct name, or None when
    the function has none) before returning or tail-calling, with a
    trailing space; '' without a frame."""
    return 'CPC_DROP(cpc_k, struct %s); ' % frame if frame is not None else ''


# A cps function returns to its caller through cpc_resume_caller (at once
# when optimised: runtime/include/cpc/cpc_runtime.h).

def return_nothing(frame):
    d = drop(frame)
    return '{ %sreturn cpc_resume_caller(cpc_k); }' % d if d else \
        'return cpc_resume_caller(cpc_k);'


def return_void_expr(expr, frame):
    return '{ %s; %sreturn cpc_resume_caller(cpc_k); }' % (expr, drop(frame))


def return_value(ret_decl, expr, frame):
    """`return e;` of a non-void function (`ret_decl`: `T cpc_ret`)."""
    return '{ %s = %s; %sreturn cpc_return_reserved(cpc_k, &cpc_ret, sizeof cpc_ret); }' % (
        ret_decl, expr, drop(frame))


def tail_call(fn, args, frame):
    code = 'return %s;' % call(fn, args)
    d = drop(frame)
    return '{ %s%s }' % (d, code) if d else code


def use_of(name):
    """A statement naming function `name` in an operand never evaluated:
    gcc diagnoses the use (its `deprecated` attribute) at the statement's
    line, and no code refers to it.  (First on its line: after a macro's
    expansion on the same line, gcc would attribute it to the macro.)"""
    return '(void)sizeof(&%s);' % name


def top_of(name):
    """The frame of function `name` at the top of the continuation."""
    return 'CPC_TOP(cpc_k, struct %s)' % frame_name(name)


def frame_top(name):
    return 'cpc_f = CPC_TOP(cpc_k, struct %s);' % frame_name(name)


def call_site(name, index, comment, arg_temps, result_temps, stores, store_fn_index, fn,
              args, restores, result, stable=False, dispatch_chunk=None, refind=False):
    """The lines replacing a cps call: one block, declaring at its top the
    temporaries of the arguments (`arg_temps`, initialised) and of the
    result (`result_temps`), then the frame stores `stores` (and cpc_fn
    when `store_fn_index`), the call, the label of resume point `index`,
    the restores and what becomes of the result (`result`).  Returns
    (lines, whether they use the body's cpc_f).  A block that declares
    nothing is no lexical block for debuggers: a breakpoint on the call's
    line has one location, before the call.  Jumping to the label skips the
    argument temporaries' initialisation, which C forbids only for a
    variably modified type: then they and the call get an inner block.
    With a `stable` frame, cpc_f already points to the frame; with a
    `dispatch_chunk`, cpc_fn is that chunk's dispatch function, which the
    chunk stored once at its entry (frame_push, chunk_head: one store per
    chunk instead of one per call site for gcc to compile), and the site
    stores the resume point in cpc_point alone
    (see dispatch).  The resume
    point tells the C compiler that memory is what another invocation left
    (CPC_RESUMED: no code), so that its analyses of the memory read after
    it stop there instead of going back through every other resume point
    of the body.  With `refind` (frame-resident variables, which the code
    after the resume point reads through cpc_f), the resume point sets
    cpc_f again even when it restores nothing."""
    top = [] if stable else [frame_top(name)]
    sets = list(stores)
    if store_fn_index is not None and dispatch_chunk is not None:
        sets.append('cpc_f->cpc_point = %d;' % store_fn_index)
    elif store_fn_index is not None:
        sets.append('cpc_f->cpc_fn = %s__resume_%d;' % (name, store_fn_index))
    call_stmts = arg_temps + (top + sets if sets else [])
    call_stmts.append('return %s;' % call(fn, args))
    if any('[' in t.split('=')[0] for t in arg_temps):
        call_stmts = ['{'] + ['    ' + c for c in call_stmts] + ['}']
    after = restores + result
    if after or refind:
        after = top + after
    lines = ['{ /* %s */' % comment]
    lines += ['    ' + t for t in result_temps + call_stmts]
    lines.append('%s__resumed_%d: CPC_RESUMED();' % (name, index))
    lines += ['    ' + x for x in after]
    lines.append('}')
    return lines, bool(sets or after)


def result_into(var):
    return 'CPC_RESULT(%s, cpc_f);' % var


def result_converted(dest):
    """The result read as the callee's type into cpc_r (declared at the
    block's top), then assigned to `dest`."""
    return 'CPC_RESULT(cpc_r, cpc_f); %s = cpc_r;' % dest


def result_returned(frame):
    """Return the callee's result (cpc_r, then cpc_ret: declared at the
    block's top)."""
    return ['CPC_RESULT(cpc_r, cpc_f);',
            'cpc_ret = cpc_r; %sreturn cpc_return_reserved(cpc_k, &cpc_ret, sizeof cpc_ret);'
            % drop(frame)]


def void_returned(frame):
    return ['%sreturn cpc_resume_caller(cpc_k);' % drop(frame)]


# -- spawns

def spawn_args_struct(st, fields):
    return 'struct %s { %s };' % (st, ' '.join(fields))


def spawn_start(name, st, pops_args, fn, cargs):
    """The thunk `F__spawn_N__start` the new thread starts with: pops
    `struct st`, the continuation's only frame, and calls the spawned
    function."""
    pop = ('    struct %s *cpc_a = CPC_POP_FIRST(cpc_k, struct %s);\n' % (st, st)
           if pops_args else '    (void)CPC_POP_FIRST(cpc_k, struct %s);\n' % st)
    return labelled(name + '__start', symbol(name, 'start')) + (
        'static CPC_CPS_FN cpc_continuation *%s__start(cpc_continuation *cpc_k)\n{\n'
        '%s'
        '    return %s;\n}' % (name, pop, call(fn, cargs)))


def spawn_site(name, comment, st, assigns):
    """The lines replacing `cpc_spawn g(...)`: a new continuation with the
    arguments (`assigns`: statements filling cpc_a), handed to the
    scheduler.  The continuation is made empty with room for the
    arguments, so pushing them needs no check and no look at its length."""
    body = ['{ /* %s */' % comment,
            '    cpc_continuation *cpc_sk = cpc_continuation_new(sizeof(struct %s));' % st,
            '    struct %s *cpc_a = CPC_PUSH_FIRST(cpc_sk, struct %s);' % (st, st)]
    body += ['    ' + x for x in assigns]
    body += ['    cpc_a->cpc_fn = %s__start;' % name,
             '    cpc_spawn_continuation(cpc_sk);',
             '}']
    return body
