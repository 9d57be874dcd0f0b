"""Photo transforms for robustness trials of the referee (developer tool, never used by it).

Each takes a H×W×3 uint8 BGR photo and a strength s and returns one: what a real camera, lamp
or table does to a photo after the station's colour photo was taken (tints, tone curves,
sharpening, blur, roll and keystone, distortion, a hand or a cable on the mat, re-encoding).
Deterministic (seeded by the image size and name). `T` maps each name to its transform;
`make_sets.py` writes transformed copies of labelled photo sets with them. Written for the
twenty-fifth session's break-it trial (docs/measurements.md).
"""
import cv2
import numpy as np


def _clip(x):
    return np.clip(x, 0, 255).astype(np.uint8)


def wb(img, r, g, b):
    """channel gains (R, G, B)"""
    f = img.astype(np.float32)
    f[..., 2] *= r
    f[..., 1] *= g
    f[..., 0] *= b
    return _clip(f)


def warm(img, s):        # tungsten-ish: red up, blue down
    return wb(img, 1 + s, 1.0, 1 - s)


def cool(img, s):
    return wb(img, 1 - s, 1.0, 1 + s)


def green(img, s):       # fluorescent green cast
    return wb(img, 1 - s / 2, 1 + s, 1 - s / 2)


def magenta(img, s):
    return wb(img, 1 + s / 2, 1 - s, 1 + s / 2)


def saturate(img, s):    # phone "vivid": scale chroma in Lab
    lab = cv2.cvtColor(img, cv2.COLOR_BGR2LAB).astype(np.float32)
    lab[..., 1:] = (lab[..., 1:] - 128) * s + 128
    return cv2.cvtColor(_clip(lab), cv2.COLOR_LAB2BGR)


def contrast(img, s):    # S-free linear contrast about mid grey
    f = img.astype(np.float32)
    return _clip((f - 128) * s + 128)


def gamma(img, s):
    f = img.astype(np.float32) / 255
    return _clip(255 * f ** s)


def exposure(img, s):    # EV stops, clipped like a sensor
    f = img.astype(np.float32) / 255
    lin = f ** 2.2 * 2 ** s
    return _clip(255 * np.clip(lin, 0, 1) ** (1 / 2.2))


def hdr(img, s):         # local tone mapping look: CLAHE on L plus a bit of saturation
    lab = cv2.cvtColor(img, cv2.COLOR_BGR2LAB)
    cl = cv2.createCLAHE(clipLimit=s, tileGridSize=(8, 8))
    lab[..., 0] = cl.apply(lab[..., 0])
    return cv2.cvtColor(lab, cv2.COLOR_LAB2BGR)


def sharpen(img, s):     # unsharp mask, radius ~1.5 px, amount s
    f = img.astype(np.float32)
    bl = cv2.GaussianBlur(f, (0, 0), 1.5)
    return _clip(f + s * (f - bl))


def noise(img, s):       # ISO noise: luminance + chroma gaussian, sigma s (8-bit levels)
    rng = np.random.default_rng(img.shape[0] * 7 + img.shape[1] + int(img[::37, ::41].sum()))
    f = img.astype(np.float32)
    lum = rng.normal(0, s, img.shape[:2]).astype(np.float32)[..., None]
    chro = rng.normal(0, s * 0.6, img.shape).astype(np.float32)
    chro = cv2.GaussianBlur(chro, (0, 0), 1.0)  # chroma noise is blotchy
    return _clip(f + lum + chro)


def vignette(img, s):    # corners darkened by fraction s
    h, w = img.shape[:2]
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    r2 = ((x - w / 2) ** 2 + (y - h / 2) ** 2) / ((w / 2) ** 2 + (h / 2) ** 2)
    g = 1 - s * r2 ** 1.5
    return _clip(img.astype(np.float32) * g[..., None])


def motion(img, s, angle=0.0):  # linear motion blur of length s px at angle (deg)
    k = np.zeros((int(s) * 2 + 1, int(s) * 2 + 1), np.float32)
    c = int(s)
    L = s / 2
    dx, dy = np.cos(np.radians(angle)), np.sin(np.radians(angle))
    n = 4 * int(s) + 1
    for t in np.linspace(-L, L, n):
        x, y = c + t * dx, c + t * dy
        x0, y0 = int(np.floor(x)), int(np.floor(y))
        fx, fy = x - x0, y - y0
        for xx, yy, ww in ((x0, y0, (1 - fx) * (1 - fy)), (x0 + 1, y0, fx * (1 - fy)),
                           (x0, y0 + 1, (1 - fx) * fy), (x0 + 1, y0 + 1, fx * fy)):
            if 0 <= xx < k.shape[1] and 0 <= yy < k.shape[0]:
                k[yy, xx] += ww
    k /= k.sum()
    return cv2.filter2D(img, -1, k, borderType=cv2.BORDER_REFLECT)


def motion_h(img, s):
    return motion(img, s, 0)


def motion_v(img, s):
    return motion(img, s, 90)


def motion_d(img, s):
    return motion(img, s, 30)


def roll(img, s):        # camera roll s degrees about the image centre
    h, w = img.shape[:2]
    M = cv2.getRotationMatrix2D((w / 2, h / 2), s, 1.0)
    return cv2.warpAffine(img, M, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)


def _rot_h(img, rx, ry):
    h, w = img.shape[:2]
    f = 0.9 * w  # rough focal; a pure rotation warp with f
    K = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]], np.float64)
    R, _ = cv2.Rodrigues(np.array([np.radians(rx), np.radians(ry), 0.0]))
    H = K @ R @ np.linalg.inv(K)
    return cv2.warpPerspective(img, H, (w, h), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REFLECT)


def tilt(img, s):        # keystone: perspective warp, pitch s deg (approx f = 0.9 w)
    return _rot_h(img, s, 0)


def pan(img, s):         # keystone: yaw s deg
    return _rot_h(img, 0, s)


def chroma_ab(img, s):   # lateral CA: R scaled 1+s, B scaled 1-s about centre
    h, w = img.shape[:2]
    out = img.copy()
    for ch, sc in ((2, 1 + s), (0, 1 - s)):
        M = np.array([[sc, 0, w / 2 * (1 - sc)], [0, sc, h / 2 * (1 - sc)]], np.float32)
        out[..., ch] = cv2.warpAffine(img[..., ch], M, (w, h), flags=cv2.INTER_LINEAR,
                                      borderMode=cv2.BORDER_REFLECT)
    return out


def rshutter(img, s):    # rolling-shutter skew: x shifted by s * (y - h/2) px
    h, w = img.shape[:2]
    M = np.array([[1, s, -s * h / 2], [0, 1, 0]], np.float32)
    return cv2.warpAffine(img, M, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)


def rewrap(img, s):      # re-encoding chain JPEG q -> PNG -> JPEG q-10 -> JPEG q-20 (min 30)
    q = int(s)
    x = img
    for qq in (q, max(30, q - 10), max(30, q - 20)):
        ok, buf = cv2.imencode(".jpg", x, [cv2.IMWRITE_JPEG_QUALITY, qq])
        x = cv2.imdecode(buf, cv2.IMREAD_COLOR)
        ok, buf = cv2.imencode(".png", x)
        x = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return x


def rescale(img, s):     # downscale by s then back up (linear)
    h, w = img.shape[:2]
    sm = cv2.resize(img, (int(w * s), int(h * s)), interpolation=cv2.INTER_AREA)
    return cv2.resize(sm, (w, h), interpolation=cv2.INTER_LINEAR)


def flicker(img, s):     # horizontal brightness banding, amplitude s, period 60 px
    h, w = img.shape[:2]
    y = np.arange(h, dtype=np.float32)
    g = 1 + s * np.sin(2 * np.pi * y / 60.0)
    return _clip(img.astype(np.float32) * g[:, None, None])


def distort(img, s):     # extra radial distortion k1 = s (normalised by half-diagonal)
    h, w = img.shape[:2]
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    cx, cy = w / 2, h / 2
    rn = np.sqrt((w / 2) ** 2 + (h / 2) ** 2)
    xn, yn = (x - cx) / rn, (y - cy) / rn
    r2 = xn * xn + yn * yn
    f = 1 + s * r2
    mx, my = (cx + xn * f * rn).astype(np.float32), (cy + yn * f * rn).astype(np.float32)
    return cv2.remap(img, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)


def shadow(img, s):      # a soft shadow (person leaning in) over the left 45 % of the image
    h, w = img.shape[:2]
    x = np.arange(w, dtype=np.float32)
    edge = 0.45 * w
    m = 1 / (1 + np.exp((x - edge) / (0.03 * w)))
    g = 1 - s * m
    return _clip(img.astype(np.float32) * g[None, :, None])


def shadow_diag(img, s):  # a soft diagonal shadow band across the middle
    h, w = img.shape[:2]
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    d = (x / w + y / h - 1.0)
    m = np.exp(-(d / 0.15) ** 2)
    return _clip(img.astype(np.float32) * (1 - s * m)[..., None])


def glare(img, s):       # a specular hot spot (window / lamp reflection) near centre-left
    h, w = img.shape[:2]
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    cx, cy = 0.35 * w, 0.6 * h
    r = 0.12 * w
    m = np.exp(-((x - cx) ** 2 + (y - cy) ** 2) / (2 * r * r))
    return _clip(img.astype(np.float32) + s * 255 * m[..., None])


def phone(img, s):       # a phone pipeline: vivid + sharpen + noise (s scales all)
    x = saturate(img, 1 + 0.3 * s)
    x = contrast(x, 1 + 0.15 * s)
    x = sharpen(x, 0.8 * s)
    x = noise(x, 3 * s)
    return x


def webcam(img, s):      # cheap webcam: noise + denoise smear + rescale + jpeg
    x = noise(img, 4 * s)
    x = cv2.bilateralFilter(x, 5, 20 * s, 3)
    x = rescale(x, 1 / (1 + 0.4 * s))
    return x


T = {k: v for k, v in globals().items() if callable(v) and not k.startswith("_")
     and k not in ("wb", "motion")}
T.pop("T", None)


def ident(img, s):
    return img


T["ident"] = ident


import sys  # noqa: E402
from pathlib import Path  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent))
import occluders as occl  # noqa: E402


def _mk_hand(where):
    def f(img, s):
        r = occl.hand(img, where, s)
        return img if r is None else r
    f.__name__ = "hand" + where
    return f


for _w in ("NL", "NR", "N", "L", "R", "FR", "FL"):
    T["hand" + _w] = _mk_hand(_w)


def _mk_cable(kind):
    def f(img, s):
        r = occl.cable(img, kind)
        return img if r is None else r
    return f


for _k in ("near", "diag", "far"):
    T["cable" + _k] = _mk_cable(_k)


def jpegq(img, s):  # one JPEG save at quality s (the harness then stores it at 92)
    ok, jpeg = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(s)])
    return cv2.imdecode(jpeg, cv2.IMREAD_COLOR)


T["jpegq"] = jpegq
