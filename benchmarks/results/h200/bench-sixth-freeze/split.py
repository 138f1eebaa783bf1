#!/usr/bin/env python3
# Mean |predicted - measured| improvement per group of apps (the first twelve,
# then each freeze's four), per metric, and every row's SM-pipes prediction:
# python3 split.py results.json
import json, statistics, sys

FREEZES = [{'kepler', 'primes', 'raymarch', 'md'}, {'binomial', 'dfa', 'bvh', 'quad'},
           {'join', 'tri', 'queens', 'rabin'}, {'parse', 'knn', 'ode', 'pow'},
           {'huff', 'ksort', 'bloom', 'bisect'}, {'pip', 'spgemm', 'jacobi', 'rho'}]
ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth']
GROUPS = ['the first twelve'] + ['added after the %s freeze' % o for o in ORDINALS]
KEYS = [('bbv_weighted', 'BBV-weighted'), ('bbv_weighted_scheduled', 'BBV-weighted-scheduled'),
        ('bbv_weighted_sm_shared', 'SM-shared'), ('bbv_weighted_sm_pipes', 'SM-pipes')]


def rows(d):
    """(app, algorithm, bound, group, measured %, predicted improvements) of every row."""
    for a in d['apps']:
        p = a.get('prediction', {})
        if not p.get('present'):
            continue
        base = statistics.median([v for v in a['variants'] if v['name'] == 'baseline'][0]['times_ms'])
        group = next((GROUPS[i + 1] for i, f in enumerate(FREEZES) if a['app'] in f), GROUPS[0])
        for alg in ['sorting', 'greedy', 'greedy-max']:
            v = [x for x in a['variants'] if x['name'] == alg]
            if not v or v[0].get('status') != 'ok' or alg not in p['improvement']:
                continue
            actual = (base - statistics.median(v[0]['times_ms'])) / base * 100
            bound = 'compute' if a['compute_bound'] else 'memory'
            yield a['app'], alg, bound, group, actual, p['improvement'][alg]


all_rows = list(rows(json.load(open(sys.argv[1]))))
errors = {}
for _, _, bound, group, actual, predicted in all_rows:
    for k, _ in KEYS:
        errors.setdefault((group, bound), {}).setdefault(k, []).append(abs(actual - predicted[k] * 100))
print('| apps | rows | ' + ' | '.join(n for _, n in KEYS) + ' |')
print('|---|--:|' + '--:|' * len(KEYS))
for group in GROUPS:
    for bound in ['compute', 'memory']:
        if (group, bound) not in errors:
            continue
        r = errors[(group, bound)]
        print('| %s, %s-bound | %d | ' % (group, bound, len(r['bbv_weighted'])) +
              ' | '.join('%.1f' % (sum(r[k]) / len(r[k])) for k, _ in KEYS) + ' |')
print()
print('| app | algorithm | bound | actual % | SM-pipes % | error | sign |')
print('|---|---|---|--:|--:|--:|---|')
for app, alg, bound, _, actual, predicted in all_rows:
    pipes = predicted['bbv_weighted_sm_pipes'] * 100
    sign = '' if abs(actual) < 5 else ('right' if (actual > 0) == (pipes > 0) else 'WRONG')
    print('| %s | %s | %s | %.1f | %.1f | %.1f | %s |' % (app, alg, bound, actual, pipes, abs(actual - pipes), sign))
