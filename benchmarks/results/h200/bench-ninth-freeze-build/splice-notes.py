# Replace the notes of every record in PROFILE with the kernel's notes from LL.
import json,re,struct,sys
prof,ll,out=sys.argv[1:4]
text=open(ll).read()
mods=[]
for m in re.finditer(r'__divopt_notes = [^\n]*? c"((?:[^"\\]|\\[0-9A-Fa-f]{2}|\\\\)*)"',text):
    raw=re.sub(r'\\([0-9A-Fa-f]{2})',lambda x: chr(int(x.group(1),16)),m.group(1))
    mods.append(json.loads(raw))
kern={}
for M in mods:
    for k in M['kernels']: kern[k['name']]=k
def fnv(b):
    h=0xcbf29ce484222325
    for c in b: h=((h^c)*0x100000001b3)&0xffffffffffffffff
    return h
data=bytearray(open(prof,'rb').read())
outb=bytearray(); pos=0; n=0; changed=0
MAG=b'DIVPROF\0'
starts=[]
i=data.find(MAG)
while i>=0:
    starts.append(i); i=data.find(MAG,i+1)
starts.append(len(data))
for a,b in zip(starts,starts[1:]):
    rec=bytes(data[a:b]); p=8
    ver=struct.unpack_from('<I',rec,p)[0]; p+=4
    assert ver==3, ver
    def s():
        global p
        L=struct.unpack_from('<I',rec,p)[0]; v=rec[p+4:p+4+L]; p+=4+L; return v
    name=s().decode(); s(); s()
    p+=4+4+8+4+8+12+12+4+4+4
    dig_at=p; p+=8
    nl=struct.unpack_from('<I',rec,p)[0]; old=json.loads(rec[p+4:p+4+nl]); after=p+4+nl
    new=kern[name]
    for B,NB in zip(old['blocks'],new['blocks']):
        for k in ('id','succ','mix','critical_path','lines'):
            if B[k]!=NB.get(k): raise SystemExit(f"{name}: block {B['id']} differs in {k}")
    assert len(old['blocks'])==len(new['blocks'])
    for k in ('counters','branches'):
        assert old.get(k)==new.get(k),k
    nb=json.dumps(new,separators=(',',':')).encode()
    outb+=rec[:dig_at]+struct.pack('<Q',fnv(nb))+struct.pack('<I',len(nb))+nb+rec[after:]
    n+=1
open(out,'wb').write(outb)
print(prof,n,'records', 'local_bytes',new.get('local_bytes'), 'local accesses',sum(len(b.get('local_access_bytes',[])) for b in new['blocks']))
