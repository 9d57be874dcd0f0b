"""Occluders for robustness trials (developer tool): a hand or a cable drawn flat in the
mat's board frame (mm), projected with a homography fitted to the markers found in the photo
(OpenCV ArUco DICT_4X4_50, the mat's layout)."""
import cv2
import numpy as np

_D = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
_P = cv2.aruco.DetectorParameters()
_DET = cv2.aruco.ArucoDetector(_D, _P)
# marker id -> (col,row) of its white square (OpenCV default layout, top-left black)
_POS = {}
i = 0
for r in range(3):
    for c in range(7):
        if (r + c) % 2 == 1:
            _POS[i] = (c, r)
            i += 1


def board_h(img):
    corners, ids, _ = _DET.detectMarkers(img)
    if ids is None or len(ids) < 3:
        return None
    src, dst = [], []
    for cs, idv in zip(corners, ids.ravel(), strict=True):
        if idv not in _POS:
            continue
        c, r = _POS[idv]
        x0, y0 = c * 40 + 5, r * 40 + 5
        src += [(x0, y0), (x0 + 30, y0), (x0 + 30, y0 + 30), (x0, y0 + 30)]
        dst += list(cs.reshape(4, 2))
    if len(src) < 12:
        return None
    H, _ = cv2.findHomography(np.float32(src), np.float32(dst), cv2.RANSAC, 3.0)
    return H


def _proj(H, pts):
    p = cv2.perspectiveTransform(np.float32(pts).reshape(-1, 1, 2), H)
    return p.reshape(-1, 2)


def _hand_mask(img, H, cx, cy, ang, scale):
    """a hand (palm + 4 fingers) in board mm, centred at cx,cy, fingers pointing ang deg"""
    h, w = img.shape[:2]
    m = np.zeros((h, w), np.float32)
    a = np.radians(ang)
    u = np.array([np.cos(a), np.sin(a)])  # finger direction
    v = np.array([-u[1], u[0]])
    shapes = []
    # palm: ellipse 45x55 mm (scale)
    t = np.linspace(0, 2 * np.pi, 40)
    palm = [np.array([cx, cy]) + scale * (28 * np.cos(tt) * v + 35 * np.sin(tt) * u) for tt in t]
    shapes.append(palm)
    # forearm: from the palm's base, straight out of the picture (in image space)
    b1 = _proj(H, [np.array([cx, cy]) + scale * (-26 * v - 10 * u)])[0]
    b2 = _proj(H, [np.array([cx, cy]) + scale * (26 * v - 10 * u)])[0]
    c0 = _proj(H, [np.array([cx, cy])])[0]
    c1 = _proj(H, [np.array([cx, cy]) - scale * 40 * u])[0]
    d = (c1 - c0) / (np.linalg.norm(c1 - c0) + 1e-9)
    arm_img = np.array([b1, b2, b2 + 3000 * d, b1 + 3000 * d])
    cv2.fillPoly(m, [np.int32(np.round(arm_img))], 1.0, lineType=cv2.LINE_AA)
    for k, off in enumerate((-19, -6.5, 6.5, 19)):
        L = (55, 65, 62, 50)[k]
        f = [np.array([cx, cy]) + scale * (p[0] * v + p[1] * u) for p in
             [(off - 5.5, 20), (off + 5.5, 20), (off + 5, 20 + L), (off - 5, 20 + L)]]
        shapes.append(f)
    for s in shapes:
        q = _proj(H, s)
        if not np.all(np.isfinite(q)):
            continue
        cv2.fillPoly(m, [np.int32(np.round(q))], 1.0, lineType=cv2.LINE_AA)
    return m


def _skin(img, m, seed):
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    shade = 0.85 + 0.15 * np.sin(xx / 37.0 + yy / 53.0 + seed)
    col = np.array([120, 150, 205], np.float32)  # BGR skin
    sk = col[None, None, :] * shade[..., None]
    m = cv2.GaussianBlur(m, (0, 0), 1.5)[..., None]
    # a soft cast shadow under the hand
    sh = cv2.GaussianBlur(np.roll(m[..., 0], (6, 6), (0, 1)), (0, 0), 8)[..., None]
    base = img.astype(np.float32) * (1 - 0.35 * sh)
    return np.clip(base * (1 - m) + sk * m, 0, 255).astype(np.uint8)


def hand(img, where, scale=1.0):
    H = board_h(img)
    if H is None:
        return None
    # positions in board mm (x right, y toward camera); fingers point into the board
    cfg = {
        "NL": (15, 160, -65),      # near-left corner, from the camera side
        "NR": (265, 160, -115),   # near-right corner
        "N": (140, 170, -90),     # middle of the near edge
        "L": (-75, 70, 0),        # from the left, over the left end
        "R": (355, 70, 180),      # from the right
        "FR": (345, 0, 190),      # far-right corner, beside the build zone
        "FL": (-65, 0, -10),      # far-left corner
    }[where]
    cx, cy, ang = cfg
    m = _hand_mask(img, H, cx, cy, ang, scale)
    return _skin(img, m, cx)


def cable(img, kind):
    H = board_h(img)
    if H is None:
        return None
    h, w = img.shape[:2]
    if kind == "near":
        pts = [(-200, 150), (-10, 118), (100, 112), (200, 100), (290, 92), (500, 80)]
    elif kind == "diag":
        pts = [(-100, -40), (60, 20), (150, 70), (240, 120), (400, 200)]
    else:  # "far": along the far edge of the board, between board and build line
        pts = [(-200, 10), (0, -3), (140, -4), (280, -2), (500, 6)]
    P = np.array(pts, np.float32)
    # polyline resampled, then widened in mm
    segs = np.concatenate([np.linspace(P[i], P[i + 1], 40) for i in range(len(P) - 1)])
    m = np.zeros((h, w), np.float32)
    # width: 6 mm projected locally
    for i in range(len(segs) - 1):
        a, b = segs[i], segs[i + 1]
        d = (b - a) / (np.linalg.norm(b - a) + 1e-9)
        n = np.array([-d[1], d[0]]) * 3.0
        quad = _proj(H, [a + n, b + n, b - n, a - n])
        if np.all(np.isfinite(quad)) and np.abs(quad).max() < 1e5:
            cv2.fillPoly(m, [np.int32(np.round(quad))], 1.0, lineType=cv2.LINE_AA)
    m = cv2.GaussianBlur(m, (0, 0), 0.8)[..., None]
    col = np.array([35, 35, 38], np.float32)
    out = img.astype(np.float32) * (1 - m) + col * m
    return np.clip(out, 0, 255).astype(np.uint8)
