"""cpc-check: what it writes from what the checker decided: the `--infer`
listing or patch, and the `--dot` call graph.
"""
import difflib


class Output:
    """The outputs of a checker `ck` that has built and checked its graph."""

    def __init__(self, ck):
        self.ck = ck

    def infer_output(self, fmt):
        miss = self.ck.missing()
        out = []
        if fmt == 'list':
            out = [n.name for n in miss]
        elif fmt == 'patch':
            out = self.patch(miss)
        else:
            for n in miss:
                f, line, col = n.defn_loc
                chain = self.ck.chain_names(n)
                reason = ''
                if chain:
                    reason = ' (%s %s)' % (self.ck.why_verb(n),
                                           ' -> '.join('`%s`' % x for x in chain))
                elif n.root == 'entry':
                    reason = ' (entry point)'
                out.append('%s:%d:%d: note: `%s` must be annotated %s%s' % (
                    f, line, col, n.name, self.ck.coro_name, reason))
            # native functions (main, --native) that call what must be cooperative
            for n in sorted(self.ck.nodes.values(), key=lambda n: n.key):
                if n.kind != 'func' or not n.local or not (
                        n.root == 'native' or (n.native_use and not n.coro)):
                    continue
                for e in n.calls:
                    d = e.dst
                    if e.kind == 'call' and d.inferred and not d.coro and d.local:
                        f, line, col = e.loc
                        out.append('%s:%d:%d: note: `%s` stays native but calls `%s`, which '
                                   'must be %s: run it in a new thread or coroutine' % (
                                       f, line, col, n.name, d.name, self.ck.coro_name))
        return out, bool(miss)

    def patch(self, miss):
        from cpc_check_fix import insertion_point
        edits = {}
        for n in miss:
            for (loc, sp, system, ident, d) in n.decl_locs:
                fname, off = ident
                if system or fname is None or sp:
                    continue
                if self.ck.cpc_header(fname):
                    continue
                text = self.ck.file_text(fname) if fname not in self.ck.main_paths else \
                    self.ck.disk_text(fname)
                pos = insertion_point(d, text)
                if pos is None:
                    continue
                edits.setdefault(fname, set()).add(pos)
        # the native slots that inference makes cooperative, as --fix does
        for n in self.ck.nodes.values():
            if n.kind != 'slot' or not n.inferred or n.slot_at is None:
                continue
            fname = n.slot_at.file
            if fname is None or self.ck.cpc_header(fname):
                continue
            pos = insertion_point(n.slot_at, self.ck.disk_text(fname))
            if pos is not None:
                edits.setdefault(fname, set()).add(pos)
        out = []
        for fname in sorted(edits, key=lambda f: (f not in self.ck.main_paths, f)):
            text = self.ck.disk_text(fname)
            new = text
            for pos in sorted(edits[fname], reverse=True):
                new = new[:pos] + self.ck.coro_name.encode() + b' ' + new[pos:]
            a = text.decode('utf-8', 'replace').splitlines(True)
            b = new.decode('utf-8', 'replace').splitlines(True)
            for l in difflib.unified_diff(a, b, fname, fname):
                out.append(l if l.endswith('\n') else l + '\n\\ No newline at end of file\n')
        return [l.rstrip('\n') for l in ''.join(out).splitlines()]

    def dot(self):
        """The annotated call graph (native functions defined outside the
        analysed files are left out, as in CoroCheck)."""
        cn, bn = self.ck.coro_name, self.ck.block_name
        keep = [n for n in self.ck.nodes.values() if self.shown(n)]
        keep_keys = set(n.key for n in keep)
        ids = {}
        used = {}
        for n in sorted(keep, key=lambda n: (n.name, n.key)):
            base = n.name if n.kind != 'ptr' else '*' + n.name
            i = base
            k = 2
            while i in used:
                i = '%s#%d' % (base, k)
                k += 1
            used[i] = True
            ids[n.key] = i

        def q(s):
            return '"%s"' % s.replace('\\', '\\\\').replace('"', '\\"').replace('\n', '\\n')
        lines = ['digraph "cpc-check" {',
                 '  node [fontname="Helvetica"];',
                 '  edge [fontname="Helvetica"];']
        for n in sorted(keep, key=lambda n: ids[n.key]):
            attrs = []
            label = n.name if n.kind != 'ptr' else '*' + n.name
            anns = []
            if n.coro and n.kind in ('func', 'ptr'):
                anns.append(cn)
            if n.block:
                anns.append(bn)
            if anns:
                label += '\n' + ' '.join(anns)
            coop = n.inferred or n.kind == 'spawn'
            if n.kind == 'spawn':
                attrs.append('shape=box')
                style = ['rounded']
            elif coop:
                attrs.append('shape=box')
                style = []
            elif n.block:
                attrs.append('shape=octagon')
                style = []
            else:
                attrs.append('shape=ellipse')
                style = []
            # (an annotated function that uses its continuation is not
            # spurious: see check())
            mismatch = n.kind == 'func' and n.local and (
                (n.coro != n.inferred and not (n.coro and n.uses_cont)) or
                (n.coro and n.block))
            if mismatch:
                style.append('dashed')
                attrs.append('color=red')
            if n.block and not mismatch:
                style.append('filled')
                attrs.append('fillcolor=lightgrey')
            if style:
                attrs.append('style="%s"' % ','.join(style))
            attrs.insert(0, 'label=%s' % q(label))
            lines.append('  %s [%s];' % (q(ids[n.key]), ', '.join(attrs)))
        edges = {}
        for n in keep:
            for e in n.calls:
                if e.dst.key not in keep_keys:
                    continue
                k = (ids[n.key], ids[e.dst.key])
                edges[k] = edges.get(k, '') or ('spawn' if e.kind == 'spawn' else '')
                if e.bad:
                    edges[k] = 'bad'
        for (a, b), how in sorted(edges.items()):
            attrs = ''
            if how == 'spawn':
                attrs = ' [style=dotted, label="spawn"]'
            elif how == 'bad':
                attrs = ' [color=red, style=dashed]'
            lines.append('  %s -> %s%s;' % (q(a), q(b), attrs))
        lines.append('}')
        return lines

    def shown(self, n):
        if n.kind == 'spawn' or (n.kind == 'func' and n.local):
            return True
        if not (n.coro or n.block):
            return False       # native functions defined elsewhere
        return n.key in self.ck.called

    def dot_lines(self):
        self.ck.called = set(e.dst.key for n in self.ck.nodes.values()
                          if n.kind == 'spawn' or n.local for e in n.calls)
        return self.dot()
