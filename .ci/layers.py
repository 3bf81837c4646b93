#!/usr/bin/env python3
"""The layer rules of the runtime crate (see `docs/layout.md`), checked on the
`use crate::...` / `super::...` paths of every file in tool-output-format/src (test modules
aside): no import from a lower layer to a higher one, no sink importing a source, the model
importing only the model and text, agent types knowing no formatter, and no import cycle
between files. Prints each violation and exits 1 if there is any."""
import os,re,sys
import pathlib
root=str(pathlib.Path(__file__).resolve().parent.parent/'tool-output-format'/'src')
def modname(path):
    rel=os.path.relpath(path,root)[:-3]
    if rel.endswith('/mod'): rel=rel[:-4]
    return rel.replace('/','::')
files={}
for d,_,fs in os.walk(root):
    for f in fs:
        if f.endswith('.rs'):
            p=os.path.join(d,f); files[modname(p)]=p
mods=set(files)
def resolve(path):
    parts=path.split('::')
    for i in range(len(parts),0,-1):
        m='::'.join(parts[:i])
        if m in mods: return m
    return None
edges={}
for m,p in files.items():
    src=open(p).read()
    # strip test modules crudely
    src=re.split(r'#\[cfg\(test\)\]\s*mod tests',src)[0]
    deps=set()
    for mm in re.finditer(r'crate::((?:[a-z_]+::)*[a-z_A-Z]+)',src):
        r=resolve(mm.group(1))
        if r and r!=m and not m.startswith(r+'::') : deps.add(r)
    for mm in re.finditer(r'\buse crate::\{([^}]*)\}',src):
        for it in mm.group(1).split(','):
            it=it.strip().split('::')[0]
            r=resolve(it)
            if r and r!=m: deps.add(r)
    for mm in re.finditer(r'\bsuper::((?:[a-z_]+::)*[a-z_A-Z]+)',src):
        parent='::'.join(m.split('::')[:-1]) if not p.endswith('mod.rs') else '::'.join(m.split('::')[:-1])
        full=(parent+'::' if parent else '')+mm.group(1)
        r=resolve(full)
        if r and r!=m: deps.add(r)
    edges[m]=deps
layer_of={}
L=[('face',['lib','formatter','options','names']),('call',['pipeline','focused','resolved','report']),('cut',['caps','fit','focus','summary','trailer']),('walk',['source','build']),('rules',['shape','redact','detail']),('model',['doc','agent','envelope','notice']),('ground',['text','tokens']),('beside',['sink','store','adapt','trace','private','private_field','private_convert','time','ecosystem'])]
rank={'face':7,'call':6,'cut':5,'walk':4,'rules':3,'model':2,'ground':1,'beside':0}
def layer(m):
    top=m.split('::')[0]
    for n,ms in L:
        if top in ms: return n
    return '?'
bad=[]
for m,ds in sorted(edges.items()):
    lm=layer(m)
    for d in sorted(ds):
        ld=layer(d)
        top_m, top_d = m.split('::')[0], d.split('::')[0]
        if top_m=='sink' and top_d=='source': bad.append(f'{m} -> {d} [a sink imports a source]')
        if lm=='model' and ld not in ('model','ground'): bad.append(f'{m} -> {d} [the model imports {ld}]')
        if top_m=='agent' and top_d in ('formatter','pipeline'): bad.append(f'{m} -> {d} [agent knows a formatter]')
        if lm!='beside' and ld!='beside' and rank[ld]>rank[lm]: bad.append(f'{m} ({lm}) -> {d} ({ld}) [upward]')
print('\n'.join(bad)); print(len(bad),'layer violations')
# cycles between top modules (files)
import itertools
def cycles():
    res=[]
    idx={};low={};st=[];on=set();c=[0]
    sys.setrecursionlimit(10000)
    def sc(v):
        idx[v]=low[v]=c[0];c[0]+=1;st.append(v);on.add(v)
        for w in edges.get(v,()):
            if w not in idx: sc(w);low[v]=min(low[v],low[w])
            elif w in on: low[v]=min(low[v],idx[w])
        if low[v]==idx[v]:
            comp=[]
            while True:
                w=st.pop();on.discard(w);comp.append(w)
                if w==v:break
            if len(comp)>1: res.append(comp)
    for v in edges:
        if v not in idx: sc(v)
    return res
cyc=cycles()
for comp in cyc: print('CYCLE', sorted(comp))
print(len(cyc),'cycles')
sys.exit(1 if bad or cyc else 0)
