#!/usr/bin/env python3
# Mean |predicted - measured| improvement per group of apps (the first twelve,
# then each freeze's four), per metric, and every row's SM-pipes prediction:
# python3 split.py results.json
import json,sys,statistics
d=json.load(open(sys.argv[1]))
B1={'kepler','primes','raymarch','md'}; B2={'binomial','dfa','bvh','quad'}; B3={'join','tri','queens','rabin'}; B4={'parse','knn','ode','pow'}; B5={'huff','ksort','bloom','bisect'}; B6={'pip','spgemm','jacobi','rho'}
keys=[('bbv_weighted','BBV-weighted'),('bbv_weighted_scheduled','BBV-weighted-scheduled'),('bbv_weighted_sm_shared','SM-shared'),('bbv_weighted_sm_pipes','SM-pipes')]
groups={}
for a in d['apps']:
    p=a.get('prediction',{})
    if not p.get('present'): continue
    bm=statistics.median([v for v in a['variants'] if v['name']=='baseline'][0]['times_ms'])
    for alg in ['sorting','greedy','greedy-max']:
        v=[x for x in a['variants'] if x['name']==alg]
        if not v or v[0].get('status')!='ok' or alg not in p['improvement']: continue
        act=(bm-statistics.median(v[0]['times_ms']))/bm*100
        g=('added after the sixth freeze' if a['app'] in B6 else 'added after the fifth freeze' if a['app'] in B5 else 'added after the fourth freeze' if a['app'] in B4 else 'added after the third freeze' if a['app'] in B3 else 'added after the second freeze' if a['app'] in B2 else 'added after the first freeze' if a['app'] in B1 else 'the first twelve', 'compute' if a['compute_bound'] else 'memory')
        for k,_ in keys:
            groups.setdefault(g,{}).setdefault(k,[]).append(abs(act-p['improvement'][alg][k]*100))
print('| apps | rows | '+' | '.join(n for _,n in keys)+' |')
print('|---|--:|'+'--:|'*len(keys))
for b in ['the first twelve','added after the first freeze','added after the second freeze','added after the third freeze','added after the fourth freeze','added after the fifth freeze','added after the sixth freeze']:
  for c in ['compute','memory']:
    g=(b,c)
    if g not in groups: continue
    r=groups[g]
    print('| %s, %s-bound | %d | '%(b,c,len(r['bbv_weighted']))+' | '.join('%.1f'%(sum(r[k])/len(r[k])) for k,_ in keys)+' |')
print()
print('| app | algorithm | bound | actual % | SM-pipes % | error | sign |')
print('|---|---|---|--:|--:|--:|---|')
for a in d['apps']:
    p=a.get('prediction',{})
    if not p.get('present'): continue
    bm=statistics.median([v for v in a['variants'] if v['name']=='baseline'][0]['times_ms'])
    for alg in ['sorting','greedy','greedy-max']:
        v=[x for x in a['variants'] if x['name']==alg]
        if not v or v[0].get('status')!='ok' or alg not in p['improvement']: continue
        act=(bm-statistics.median(v[0]['times_ms']))/bm*100
        pr=p['improvement'][alg]['bbv_weighted_sm_pipes']*100
        sign='' if abs(act)<5 else ('right' if (act>0)==(pr>0) else 'WRONG')
        print('| %s | %s | %s | %.1f | %.1f | %.1f | %s |'%(a['app'],alg,'compute' if a['compute_bound'] else 'memory',act,pr,abs(act-pr),sign))
