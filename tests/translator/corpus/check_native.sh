#!/bin/sh
# check_native.sh FILE...: build and run corpus programs natively (a quick check while writing them)
for f in "$@"; do
    flags=$(sed -n 's/.*corpus-flags:[ \t]*\([^*]*\).*/\1/p' "$f" | head -1)
    args=$(sed -n 's/.*corpus-args:[ \t]*\([^*]*\).*/\1/p' "$f" | head -1)
    cc -std=gnu11 -I"$(dirname "$0")" $flags -o /tmp/corpus-native "$f" -lm 2>/tmp/corpus-native.err \
        || { echo "BUILD $f"; head -5 /tmp/corpus-native.err; continue; }
    /tmp/corpus-native $args >/tmp/corpus-native.out || { echo "RUN $f: status $?"; tail -3 /tmp/corpus-native.out; }
done
