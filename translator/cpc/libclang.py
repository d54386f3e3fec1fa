"""The libclang functions the Python bindings lack (operator kinds, modified
and value types, evaluation, skipped ranges, spelling and presumed
locations, pretty printing), declared once for ctypes and called through
`lib()`.
"""
import ctypes

import clang.cindex as ci


_lib = None


def _signatures():
    """name -> (argument types, result type) of the libclang functions
    called through `lib()`."""
    # (results made as the cursors' own classes; cursors.py calls lib())
    from .cursors import Cursor, Location, Range
    c, u, vp = ctypes.c_int, ctypes.c_uint, ctypes.c_void_p
    P = ctypes.POINTER
    return {
        'clang_getCursorBinaryOperatorKind': ([ci.Cursor], c),
        'clang_getCursorUnaryOperatorKind': ([ci.Cursor], c),
        'clang_Type_getModifiedType': ([ci.Type], ci.Type),
        'clang_Type_getValueType': ([ci.Type], ci.Type),
        'clang_getElementType': ([ci.Type], ci.Type),
        'clang_getSpellingLocation': ([ci.SourceLocation, P(vp), P(u), P(u), P(u)], None),
        'clang_getExpansionLocation': ([ci.SourceLocation, P(vp), P(u), P(u), P(u)], None),
        'clang_getFileName': ([vp], ci._CXString),
        'clang_getPresumedLocation': ([ci.SourceLocation, P(ci._CXString), P(u), P(u)], None),
        'clang_getCursorPrintingPolicy': ([ci.Cursor], vp),
        'clang_PrintingPolicy_setProperty': ([vp, c, u], None),
        'clang_PrintingPolicy_dispose': ([vp], None),
        'clang_getCursorPrettyPrinted': ([ci.Cursor, vp], ci._CXString),
        # (no errcheck: Cursor.referenced and semantic_parent below do it)
        'clang_getCursorReferenced': ([ci.Cursor], Cursor),
        'clang_getCursorSemanticParent': ([ci.Cursor], Cursor),
        'clang_getCursorType': ([ci.Cursor], ci.Type),
        'clang_Cursor_isFunctionInlined': ([ci.Cursor], u),
        # extents and locations made as this module's classes at once
        'clang_getCursorExtent': ([ci.Cursor], Range),
        'clang_getCursorLocation': ([ci.Cursor], Location),
        'clang_getRangeStart': ([ci.SourceRange], Location),
        'clang_getRangeEnd': ([ci.SourceRange], Location),
        'clang_Cursor_Evaluate': ([ci.Cursor], vp),
        'clang_EvalResult_getKind': ([vp], c),
        'clang_EvalResult_getAsLongLong': ([vp], ctypes.c_longlong),
        'clang_EvalResult_dispose': ([vp], None),
        'clang_getSkippedRanges': ([ci.TranslationUnit, ci.File], P(_RangeList)),
        'clang_disposeSourceRangeList': ([P(_RangeList)], None),
    }


def lib():
    """Our own handle on libclang for the functions the bindings lack or
    declare differently: declaring their signatures here leaves the
    bindings' handle (`ci.conf.lib`) as it is for other users."""
    global _lib
    if _lib is None:
        L = ctypes.CDLL(ci.conf.lib._name)
        for name, (args, result) in _signatures().items():
            fn = getattr(L, name)
            fn.argtypes = args
            fn.restype = result
        _lib = L
    return _lib


_EVAL_INT = 1                       # CXEval_Int


def integer_value(c):
    """The value of integer constant expression c, or None when Clang cannot
    evaluate it."""
    r = lib().clang_Cursor_Evaluate(c)
    if not r:
        return None
    try:
        if lib().clang_EvalResult_getKind(r) != _EVAL_INT:
            return None
        return lib().clang_EvalResult_getAsLongLong(r)
    finally:
        lib().clang_EvalResult_dispose(r)


class _RangeList(ctypes.Structure):
    _fields_ = [('count', ctypes.c_uint), ('ranges', ctypes.POINTER(ci.SourceRange))]


def skipped_ranges(u):
    """The byte ranges of u's main file that the front-end skipped (groups of
    conditional directives it did not take), each from the directive that
    starts the skipping to the one that ends it."""
    lst = lib().clang_getSkippedRanges(u.tu, u.tu.get_file(u.path))
    try:
        return [(lst.contents.ranges[i].start.offset, lst.contents.ranges[i].end.offset)
                for i in range(lst.contents.count)]
    finally:
        lib().clang_disposeSourceRangeList(lst)


def spelling_offset(loc):
    f = ctypes.c_void_p()
    off = ctypes.c_uint()
    lib().clang_getSpellingLocation(loc, ctypes.byref(f), None, None, ctypes.byref(off))
    return f.value, off.value


def presumed(loc):
    L = lib()
    s = ci._CXString()
    line, col = ctypes.c_uint(), ctypes.c_uint()
    L.clang_getPresumedLocation(loc, ctypes.byref(s), ctypes.byref(line),
                                ctypes.byref(col))
    return ci._CXString.from_result(s), line.value, col.value


# CXPrintingPolicy_Bool: off, the boolean type is spelt `_Bool`, which every C
# mode reads (in C23 mode Clang writes `bool`, which gcc 12 does not know)
POLICY_BOOL = 12


def pretty(c):
    """Macro-expanded, valid C text of a declaration, statement or
    expression cursor."""
    L = lib()
    pol = L.clang_getCursorPrintingPolicy(c)
    try:
        L.clang_PrintingPolicy_setProperty(pol, POLICY_BOOL, 0)
        s = L.clang_getCursorPrettyPrinted(c, pol)
        return ci._CXString.from_result(s)
    finally:
        L.clang_PrintingPolicy_dispose(pol)


def is_inline(c):
    """Function declaration c, or an earlier declaration of its function,
    has the `inline` specifier."""
    return bool(lib().clang_Cursor_isFunctionInlined(c))
