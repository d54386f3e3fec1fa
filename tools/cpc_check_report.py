"""cpc-check's report: the diagnostics found, each once, in the order of
the files given then by line."""


class Report:
    def __init__(self):
        self.items = []          # (file, line, col, severity, msg)
        self.seen = set()

    def add(self, loc, severity, msg):
        f, line, col = loc
        key = (f, line, col, severity, msg)
        if key in self.seen:
            return
        self.seen.add(key)
        self.items.append(key)

    def count(self, severity):
        return sum(1 for x in self.items if x[3] == severity)

    def lines(self, order):
        def k(x):
            return (order.get(x[0], len(order)), x[0] or '', x[1], x[2])
        out = []
        for f, line, col, sev, msg in sorted(self.items, key=k):
            where = '%s:%d:%d: ' % (f, line, col) if f else ''
            out.append('%s%s: %s' % (where, sev, msg))
        return out
