#!/usr/bin/python3
"""Bare area where a layer must be solid (within three layers of a top or bottom surface), every layer.

usage: bench/py/skin_gaps.py MODEL.stl OUT.gcode [--minw 0.1] [--from A --to B] [--all]
Beads are drawn with round ends and the width their extrusion gives. Prints the layers with gaps wider
than --minw mm (a bead may close narrower ones), then a summary: required area, bare area, and the
bare area in gaps wider than --minw ("wide_mm2"). Uses ../shared/quality/gcode_quality.py
(STRATUM_SHARED to point elsewhere); the model is centred at (110, 110).
"""
import sys, math, json
import os
sys.path.insert(0, os.path.join(os.environ.get('STRATUM_SHARED', os.path.join(os.path.dirname(__file__), '..', '..', '..', 'shared')), 'quality'))
import gcode_quality as gq
import numpy as np
from shapely.geometry import LineString, Polygon
from shapely.ops import unary_union
stl, gc = sys.argv[1], sys.argv[2]
def opt(k,d): return type(d)(sys.argv[sys.argv.index(k)+1]) if k in sys.argv else d
minw=opt('--minw',0.1)
tri = gq.load_stl(stl); tri = tri - np.array([0,0,tri[:,:,2].min()])
mx0,mx1=tri[:,:,0].min(),tri[:,:,0].max(); my0,my1=tri[:,:,1].min(),tri[:,:,1].max()
tri = tri + np.array([110-(mx0+mx1)/2, 110-(my0+my1)/2, 0])
segs,_,_ = gq.parse_gcode(gc)
zs = sorted(set(round(s[0],4) for s in segs if s[1] not in gq.EXCLUDE)); zs=[z for z in zs if z>0]
by_z={}
for s in segs: by_z.setdefault(round(s[0],4),[]).append(s)
n=len(zs); a=opt('--from',0); b=opt('--to',n-1)
secs={}
def S(i):
    if i<0 or i>=n: return Polygon()
    if i not in secs:
        z=zs[i]; h=z-(zs[i-1] if i>0 else 0)
        secs[i]=gq.section(tri, z-h/2).buffer(0)
    return secs[i]
af=math.pi*(1.75/2)**2
tot_req=tot_un=0; tot_wide=0
for i in range(a,b+1):
    z=zs[i]; h=z-(zs[i-1] if i>0 else 0)
    full=S(i)
    if full.is_empty: continue
    core=full
    for j in (1,2,3,-1,-2,-3): core=core.intersection(S(i+j))
    req=full.buffer(-0.2,join_style=2).buffer(0.2,join_style=2).difference(core.buffer(0.6,join_style=2))
    if req.is_empty or req.area<0.05: continue
    st=[]
    for s in by_z[z]:
        if s[1] in gq.EXCLUDE: continue
        L=math.hypot(s[4]-s[2],s[5]-s[3])
        if L<1e-6: continue
        w=s[6]*af/(L*h)+h*(1-math.pi/4); w=min(max(w,0.1),2.0)
        st.append(LineString([(s[2],s[3]),(s[4],s[5])]).buffer(w/2,cap_style=1,join_style=1,resolution=4))
    dep=unary_union(st)
    un=req.difference(dep)
    geoms=[g for g in (list(getattr(un,'geoms',[un])) if not un.is_empty else []) if g.area>1e-5]
    big=[g for g in geoms if not g.buffer(-minw/2).is_empty]
    tot_req+=req.area; tot_un+=sum(g.area for g in geoms); tot_wide+=sum(g.area for g in big)
    if '--all' in sys.argv or big:
        print(json.dumps({"layer":i,"z":z,"req":round(req.area,1),"uncov":round(sum(g.area for g in geoms),3),"n_wide":len(big),"wide_mm2":round(sum(g.area for g in big),3),
          "top":[(round(g.centroid.x,2),round(g.centroid.y,2),round(g.area,3)) for g in sorted(big,key=lambda g:-g.area)[:5]]}))
print(json.dumps({"SUMMARY":gc.split('/')[-1],"req_mm2":round(tot_req,1),"uncov_mm2":round(tot_un,2),"wide_mm2":round(tot_wide,2),"uncov_frac":round(tot_un/max(tot_req,1e-9),5)}))
