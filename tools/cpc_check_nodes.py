"""cpc-check: the call graph's nodes and edges, and the annotations read on
declarations and types (spelled before the name, `annotate("NAME")`, a
`btf_type_tag` on the type, through typedefs and pointers).  `Nodes` is the
base of the checker (cpc_check.py); the files it reads and where things are.
"""
import os
import re

from cpc_check_report import Report


class Node:
    """A call graph node: a function, an indirect callee or a spawn."""

    def __init__(self, key, name, kind):
        self.key = key
        self.name = name
        self.kind = kind            # 'func', 'ptr', 'slot', 'spawn', 'linked'
        self.decls = []             # declaration cursors (functions)
        self.coro = False           # annotated cooperative
        self.block = False          # annotated blocking
        self.coro_at = None         # location of one annotating declaration
        self.defn = None            # (path, offset) of the definition in an analysed file
        self.defn_loc = None        # (file, line, col) of the definition's name
        self.local = False          # defined in an analysed file
        self.root = None            # why it is cooperative regardless of its calls
        self.calls = []             # Edge list (out)
        self.inferred = False       # cooperative after the fixed point
        self.why = None             # Edge that made it cooperative
        self.decl_locs = []         # [(loc, spelled_coro, system, (file, offset), DeclPos)]
        self.owner = None           # for spawn nodes: the enclosing function node
        self.need_cont = False      # a cpc_need_cont function (gets the continuation)
        self.uses_cont = False      # calls a cpc_need_cont function
        self.native_use = False     # its address goes where a native function is expected
        self.address = False        # its address is taken (a function)
        self.coro0 = None           # --fix: the annotation as written (coro: as modelled)
        self.slot = None            # for slot nodes: the slot's (file, offset)
        self.slot_at = None         # for slot nodes: DeclPos where its annotation goes

    def __repr__(self):
        return 'Node(%s)' % self.name


class DeclPos:
    """Where a declaration is written (what --infer=patch and --fix edit),
    kept without its translation unit."""
    __slots__ = ('file', 'start', 'name')

    def __init__(self, cursor):
        e, l = cursor.extent, cursor.location
        self.file = l.file.name if l.file is not None else None
        same = e.start.file is not None and e.start.file.name == self.file
        self.start = e.start.offset if same else None    # the declaration's first byte
        self.name = l.offset                             # the declared name's


class Edge:
    def __init__(self, src, dst, loc, detached=False, kind='call', text=None):
        self.src = src
        self.dst = dst
        self.loc = loc
        self.detached = detached    # inside cpc_detached / cpc_linked(pool)
        self.kind = kind            # 'call', 'spawn'; for Node.why also 'stored'
                                    # (a function in a slot), 'holds' (a slot's value)
        self.text = text
        self.bad = False
        self.asserted = False       # a hybrid test inside an assertion


class Nodes:
    def __init__(self, opts):
        from cpc import clang_types, cursors, libclang
        from cpc import frontend as fe
        from cpc.analysis import syntax
        self.fe = fe
        self.ty = clang_types
        self.cur = cursors
        self.lc = libclang
        self.syn = syntax
        self.cpc_include = os.path.realpath(fe.RUNTIME_INCLUDE) + os.sep
        self.K = fe.K
        self.opts = opts
        self.names = {'coro': list(opts.coroutine_attr), 'block': list(opts.blocking_attr)}
        self.tags = {}
        self.res = {}
        for w, ns in self.names.items():
            tags = set(ns)
            if 'cps' in ns:
                tags.add('cpc_cps')
            self.tags[w] = tags
            self.res[w] = re.compile(r'\b(%s)\b' % '|'.join(re.escape(n) for n in ns))
        self.coro_name = self.names['coro'][0]
        self.block_name = self.names['block'][0]
        self.report = Report()
        self.nodes = {}
        self.unit_lengths = {}        # analysed file -> length of the text parsed
        self.seen_decls = set()       # (file, offset) of the declarations registered
        self.texts = {}
        self.main_paths = set()
        self.decl_cache = {}
        self.unit_fns = {}
        self.keywords = True          # the unit may hold cpc_spawn / cpc_linked
        self.spawn_count = 0
        self.slots_to_annotate = []   # (ident, DeclPos) of pointer slots a cooperative function flows into
        self.native_flows = []        # (source, destination) of function pointers into native slots
        self.native_slots = set()     # slots that must stay native (native_by_use)
        self.stored_in_coro = set()   # functions stored in cooperative slots
        self.asserted = []            # (file, start, end): conditions of assertions

    def file_text(self, name):
        t = self.texts.get(name)
        if t is None:
            try:
                with open(name, 'rb') as fh:
                    t = fh.read()
            except OSError:
                t = b''
            self.texts[name] = t
        return t

    def loc(self, cursor, start=True):
        l = cursor.extent.start if start and cursor.extent is not None else cursor.location
        if l.file is None:
            l = cursor.location
        f, line, col = self.lc.presumed(l)
        return (f or (l.file.name if l.file else None), line, col)

    def name_loc(self, cursor):
        f, line, col = self.lc.presumed(cursor.location)
        return (f or (cursor.location.file.name if cursor.location.file else None), line, col)

    def is_system(self, cursor):
        l = cursor.location
        if l.file is None:
            return True
        try:
            return l.is_in_system_header
        except Exception:
            return False

    def src(self, unit, c):
        e = c.extent
        if e.start.file is None or e.start.file.name != unit.path:
            return c.spelling
        s = unit.text[e.start.offset:e.end.offset].decode('utf-8', 'replace')
        return re.sub(r'\s+', ' ', s).strip() or c.spelling

    def decl_has(self, c, which):
        """Declaration cursor c is annotated `which` ('coro' or 'block')."""
        key = (c.hash, c.location.offset, c.spelling, which)
        r = self.decl_cache.get(key)
        if r is None:
            r = self._decl_has(c, which) or self.type_has(c.type, which)
            self.decl_cache[key] = r
        return r

    def _decl_has(self, c, which):
        names = self.names[which]
        for ch in c.get_children():
            if ch.kind == self.K.ANNOTATE_ATTR and ch.spelling in names:
                return True
        return self.spelled(c, which)

    def spelled(self, c, which):
        """The attribute (or a macro of that name) is written before the
        declared name, in this declaration, or an annotate attribute of
        this very declaration says so."""
        loc, ext = c.location, c.extent
        if loc.file is None or ext is None or ext.start.file is None or \
                ext.start.file.name != loc.file.name:
            return False
        a, b = ext.start.offset, loc.offset
        if b < a:
            return False
        ftext = self.file_text(loc.file.name)
        text = ftext[a:b].decode('utf-8', 'replace')
        if self.res[which].search(text):
            return True
        # a macro that expands to nothing (`cps` in C mode, QEMU's empty
        # coroutine_fn) before the first specifier is outside the extent:
        # look back to the end of the previous declaration
        pre = ftext[max(0, a - 256):a].decode('utf-8', 'replace')
        # (a parameter's look-back stops at its parenthesis or comma: the
        # function's own annotation lies before them)
        pre = re.split(r'[;{}(,]' if c.kind == self.K.PARM_DECL else r'[;{}]', pre)[-1]
        pre = re.sub(r'/\*.*?\*/|//[^\n]*|^\s*#[^\n]*', ' ', pre, flags=re.S | re.M)
        if '*/' in pre:
            pre = pre.split('*/')[-1]
        if self.res[which].search(pre):
            return True
        names = self.names[which]
        for ch in c.get_children():
            if ch.kind == self.K.ANNOTATE_ATTR and ch.spelling in names:
                cl = ch.location
                if cl.file is not None and cl.file.name == loc.file.name and \
                        a <= cl.offset <= ext.end.offset:
                    return True
        return False

    def tag_in(self, t, which):
        m = re.findall(r'btf_type_tag\("([^"]*)"\)', t.spelling)
        return any(x in self.tags[which] for x in m)

    def type_has(self, t, which, result=False):
        """Type t (a function, a pointer to one, through typedefs) is
        annotated: a btf tag on it or its result, or an annotated typedef.
        result: t is a function's result type, where the attribute binds
        to the declaration specifiers: the tag is looked for through
        pointers and arrays, not on typedefs, not into function types."""
        for _ in range(48):
            step = self.sugar_step(t, which, typedefs=not result)
            if step is not None:
                if step[0]:
                    return True
                t = step[1]
                continue
            k = self.ty.tkind(t)
            if k == self.ty.TK_POINTER:
                t = t.get_pointee()
            elif k in (self.ty.TK_CONSTANTARRAY, self.ty.TK_INCOMPLETEARRAY) or \
                    (k == self.ty.TK_VARIABLEARRAY and not result):
                # a table of function pointers is annotated like its elements
                t = t.element_type
            elif result:
                return False
            elif k in (self.ty.TK_FUNCTIONPROTO, self.ty.TK_FUNCTIONNOPROTO):
                return self.result_has(t.get_result(), which)
            elif k in (0, 1) or k < 40 or k in (self.ty.TK_RECORD, self.ty.TK_ENUM):
                return False
            else:
                c = t.get_canonical()
                if self.ty.tkind(c) == k:
                    return False
                t = c
        return False

    def result_has(self, r, which):
        return self.type_has(r, which, result=True)

    def sugar_step(self, t, which, typedefs):
        """For a btf tag, attributed, typedef or elaborated type t: (True,
        None) when it carries annotation `which` (typedefs: an annotated
        typedef does too), else (False, what t stands for); None for any
        other type."""
        k = self.ty.tkind(t)
        if k == self.ty.TK_BTF_TAG:
            return (True, None) if self.tag_in(t, which) else (False, self.ty.modified_type(t))
        if k == self.ty.TK_ATTRIBUTED:
            return False, self.ty.modified_type(t)
        if k == self.ty.TK_TYPEDEF:
            d = t.get_declaration()
            if typedefs and d is not None and d.kind == self.K.TYPEDEF_DECL and \
                    self._decl_has(d, which):
                return True, None
            return False, d.underlying_typedef_type
        if k == self.ty.TK_ELABORATED:
            return False, t.get_named_type()
        return None

    def is_fnptr(self, t):
        return self.ty.function_type_of(t) is not None

    def fn_node(self, d):
        """The node of FUNCTION_DECL d (any declaration of it)."""
        h = d.hash
        n = self.unit_fns.get(h)      # a declaration of this unit seen before
        if n is not None:
            return n
        key = d.get_usr() or ('name:' + d.spelling)
        n = self.nodes.get(key)
        if n is None:
            n = Node(key, d.spelling, 'func')
            self.nodes[key] = n
        self.add_decl(n, d)
        self.unit_fns[h] = n
        return n

    def add_decl(self, n, d):
        ident = (d.location.file.name if d.location.file else None, d.location.offset)
        if any(x[3] == ident for x in n.decl_locs):
            return
        c = self.decl_has(d, 'coro')
        b = self.decl_has(d, 'block')
        if c:
            n.coro = True
            if n.coro_at is None:
                n.coro_at = self.name_loc(d)
        if b:
            n.block = True
        if any(ch.kind == self.K.ANNOTATE_ATTR and ch.spelling == 'cpc_need_cont'
               for ch in d.get_children()):
            n.need_cont = True
        sp = self.spelled(d, 'coro') or (self.type_has(d.type, 'coro') and not self.is_system(d))
        n.decl_locs.append((self.name_loc(d), sp, self.is_system(d), ident, DeclPos(d)))

    def ptr_node(self, text, coro, block):
        key = 'ptr:%s:%d:%d' % (text, coro, block)
        n = self.nodes.get(key)
        if n is None:
            n = Node(key, text, 'ptr')
            n.coro = coro
            n.block = block
            self.nodes[key] = n
        return n

    def special_node(self, name):
        key = 'special:' + name
        n = self.nodes.get(key)
        if n is None:
            n = Node(key, name, 'linked')
            n.coro = True
            self.nodes[key] = n
        return n

    def disk_text(self, fname):
        try:
            with open(fname, 'rb') as fh:
                return fh.read()
        except OSError:
            return b''
