#!/usr/bin/python3
"""Material in the outer 0.8 mm band of solid layers, over the volume the band holds.

usage: bench/py/band_volume.py MODEL.stl OUT.gcode [LAYERS]   (LAYERS: comma-separated indices;
default 1, 2 and the top three). Uses ../shared/quality/gcode_quality.py (STRATUM_SHARED to point
elsewhere) for the G-code reader and the mesh sections; the model is centred at (110, 110).
A ratio near 1.0 is a band filled once (CuraEngine 1.00 on the calibration cube, PrusaSlicer 0.90);
Stratum's skin line ends reaching a quarter line too far made 1.12.
"""
import math, os, sys
sys.path.insert(0, os.path.join(os.environ.get('STRATUM_SHARED', os.path.join(os.path.dirname(__file__), '..', '..', '..', 'shared')), 'quality'))
import numpy as np
import gcode_quality as G
from shapely.geometry import LineString

stl, gc = sys.argv[1], sys.argv[2]
tri = G.load_stl(stl)
tri = tri - np.array([0, 0, tri[:, :, 2].min()])
mx0, mx1 = tri[:, :, 0].min(), tri[:, :, 0].max()
my0, my1 = tri[:, :, 1].min(), tri[:, :, 1].max()
tri = tri + np.array([110 - (mx0 + mx1) / 2, 110 - (my0 + my1) / 2, 0])
segs, _, _ = G.parse_gcode(gc)
area_f = math.pi * (G.FIL_D / 2) ** 2
zs = sorted(set(round(s[0], 4) for s in segs if s[1] not in G.EXCLUDE))
zs = [z for z in zs if z > 0]
by_z = {}
for s in segs:
    by_z.setdefault(round(s[0], 4), []).append(s)
n = len(zs)
idx = [int(a) for a in sys.argv[3].split(',')] if len(sys.argv) > 3 else [1, 2, n - 3, n - 2, n - 1]
held = laid = 0.0
for i in idx:
    z = zs[i]
    h = z - (zs[i - 1] if i else 0)
    sec = G.section(tri, z - h / 2)
    band = sec.difference(sec.buffer(-0.8, join_style=2))
    in_band = 0.0
    by_type = {}
    for s in by_z[z]:
        if s[1] in G.EXCLUDE:
            continue
        length = math.hypot(s[4] - s[2], s[5] - s[3])
        if length < 1e-6:
            continue
        share = LineString([(s[2], s[3]), (s[4], s[5])]).intersection(band).length / length
        v = s[6] * area_f * share
        in_band += v
        by_type[s[1]] = by_type.get(s[1], 0) + v
    cap = band.area * h
    print(f"layer {i} z {z}: {in_band / cap:.3f} of the band (" + ", ".join(f"{k} {v / cap:.3f}" for k, v in by_type.items()) + ")")
    held += cap
    laid += in_band
print(f"all: {laid / held:.3f}")
