#!/usr/bin/env python3
"""framestamp: the send time and counter that tests/net/chromium-service.html
draws on every frame, read back from a raw frame of any size.

The stamp is a band across the top of the frame: 2 rows of 40 cells, each
row H/22 high and each cell W/40 wide (32x32 px at 1280x704, 34x35 at
1360x768), black or white. Every row starts with a white and a black
reference cell (the row's threshold is halfway between them), then 38 data
cells; the 76 data bits, most significant first, are

    48 bits  send time, Unix ms (performance.timeOrigin + performance.now())
    16 bits  frame counter (wraps at 65536)
     8 bits  CRC-8 (polynomial 0x07, initial 0) of the 8 bytes above
     4 bits  guard 1010

A white cell is bit 1. Positions are fractions of the frame, so a frame
scaled to another size (a sender adapting its resolution, an element
scaling it back) still reads; each cell is read as the mean of 9 points in
its middle half, which VP8's blur and ringing at low bitrates leave alone.

    read(frame, width, height, fmt="I420", stride=0) -> (send_ms, counter) | None

frame is the frame's bytes (bytes, bytearray or memoryview); fmt one of
FORMATS (planar YUV: the luma plane, which comes first; packed RGB: the
mean of R, G and B); stride the bytes per row of the luma plane or the
packed image (0: the format's minimum). None when the reference cells have
no contrast, or the CRC or the guard does not match.

  python3 tests/net/framestamp.py --selftest     (encode, scale, blur, read)
"""
import sys

ROWS = 2
COLUMNS = 40
BAND_ROWS_PER_HEIGHT = 22       # a row is H/22 high
TIME_BITS, COUNTER_BITS, CRC_BITS = 48, 16, 8
GUARD = (1, 0, 1, 0)
DATA_BITS = TIME_BITS + COUNTER_BITS + CRC_BITS + len(GUARD)
MIN_CONTRAST = 48               # white reference minus black, in luma

# bytes per pixel and the offsets of R, G, B (packed) or None (planar YUV)
FORMATS = {
    "I420": (1, None), "YV12": (1, None), "NV12": (1, None), "NV21": (1, None),
    "Y42B": (1, None), "Y444": (1, None), "GRAY8": (1, None),
    "RGB": (3, (0, 1, 2)), "BGR": (3, (2, 1, 0)),
    "RGBx": (4, (0, 1, 2)), "RGBA": (4, (0, 1, 2)),
    "BGRx": (4, (2, 1, 0)), "BGRA": (4, (2, 1, 0)),
    "xRGB": (4, (1, 2, 3)), "ARGB": (4, (1, 2, 3)),
    "xBGR": (4, (3, 2, 1)), "ABGR": (4, (3, 2, 1)),
}
_POINTS = (0.3, 0.5, 0.7)       # where a cell is sampled, in each direction


def crc8(data):
    crc = 0
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = ((crc << 1) ^ 0x07) & 0xFF if crc & 0x80 else (crc << 1) & 0xFF
    return crc


def bits(send_ms, counter):
    """The 76 data bits of a stamp, most significant first."""
    send_ms &= (1 << TIME_BITS) - 1
    counter &= (1 << COUNTER_BITS) - 1
    payload = send_ms.to_bytes(6, "big") + counter.to_bytes(2, "big")
    value = (int.from_bytes(payload, "big") << CRC_BITS) | crc8(payload)
    out = [(value >> i) & 1 for i in range(TIME_BITS + COUNTER_BITS + CRC_BITS - 1,
                                           -1, -1)]
    return out + list(GUARD)


def cells(send_ms, counter):
    """Each row's cells, 1 white, 0 black: the references, then the data."""
    b = bits(send_ms, counter)
    per_row = COLUMNS - 2
    return [[1, 0] + b[r * per_row:(r + 1) * per_row] for r in range(ROWS)]


def _edges(size, parts):
    return [round(i * size / parts) for i in range(parts + 1)]


def render(width, height, send_ms, counter, background=128):
    """A GRAY8 frame with the stamp (the page's drawing, for tests)."""
    frame = bytearray([background]) * (width * height)
    xs = _edges(width, COLUMNS)
    ys = _edges(height, BAND_ROWS_PER_HEIGHT)
    for r, row in enumerate(cells(send_ms, counter)):
        for c, value in enumerate(row):
            for y in range(ys[r], ys[r + 1]):
                start = y * width
                frame[start + xs[c]:start + xs[c + 1]] = \
                    bytes([255 if value else 0]) * (xs[c + 1] - xs[c])
    return bytes(frame)


def read(frame, width, height, fmt="I420", stride=0):
    """(send_ms, counter) from a frame, or None (see the module's text)."""
    if fmt not in FORMATS or width < COLUMNS or height < BAND_ROWS_PER_HEIGHT:
        return None
    pixel, rgb = FORMATS[fmt]
    stride = stride or width * pixel
    if len(frame) < stride * (height - 1) + width * pixel:
        return None
    frame = memoryview(frame).cast("B") if not isinstance(frame, (bytes, bytearray)) \
        else frame
    cell_w, row_h = width / COLUMNS, height / BAND_ROWS_PER_HEIGHT

    def luma(x, y):
        at = y * stride + x * pixel
        if rgb is None:
            return frame[at]
        return (frame[at + rgb[0]] + frame[at + rgb[1]] + frame[at + rgb[2]]) / 3

    out = []
    for r in range(ROWS):
        ys = [min(height - 1, int((r + p) * row_h)) for p in _POINTS]
        levels = []
        for c in range(COLUMNS):
            xs = [min(width - 1, int((c + p) * cell_w)) for p in _POINTS]
            levels.append(sum(luma(x, y) for y in ys for x in xs) / 9.0)
        white, black = levels[0], levels[1]
        if white - black < MIN_CONTRAST:
            return None
        threshold = (white + black) / 2
        out += [1 if v > threshold else 0 for v in levels[2:]]
    if tuple(out[-len(GUARD):]) != GUARD:
        return None
    value = 0
    for b in out[:-len(GUARD)]:
        value = (value << 1) | b
    crc = value & 0xFF
    payload = (value >> CRC_BITS).to_bytes(8, "big")
    if crc8(payload) != crc:
        return None
    return int.from_bytes(payload[:6], "big"), int.from_bytes(payload[6:], "big")


# ---- self-test ----

def _scale(frame, w, h, nw, nh):
    """Box-filtered scaling of a GRAY8 frame (what a scaler's blur does)."""
    out = bytearray(nw * nh)
    for y in range(nh):
        y0, y1 = y * h // nh, max(y * h // nh + 1, (y + 1) * h // nh)
        for x in range(nw):
            x0, x1 = x * w // nw, max(x * w // nw + 1, (x + 1) * w // nw)
            total = sum(frame[yy * w + xx] for yy in range(y0, y1) for xx in range(x0, x1))
            out[y * nw + x] = total // ((y1 - y0) * (x1 - x0))
    return bytes(out)


def _selftest():
    import random
    rng = random.Random(7)
    failures = 0
    for w, h in ((1280, 704), (1360, 768)):
        ms, n = 1767000000123 + rng.randrange(10 ** 9), rng.randrange(65536)
        full = render(w, h, ms, n)
        for nw, nh in ((w, h), (w // 2, h // 2), (w // 4, h // 4), (480, 270)):
            f = full if (nw, nh) == (w, h) else _scale(full, w, h, nw, nh)
            # noise and a compressed range (limited-range luma: 16..235)
            f = bytes(max(0, min(255, 16 + v * 219 // 255 + rng.randint(-20, 20)))
                      for v in f)
            got = read(f, nw, nh, "GRAY8")
            ok = got == (ms, n)
            failures += not ok
            print("%s %dx%d from %dx%d: %s" % ("PASS" if ok else "FAIL", nw, nh, w, h, got))
        # a damaged cell is refused (the CRC), a plain frame reads nothing
        bad = bytearray(full)
        xs, ys = _edges(w, COLUMNS), _edges(h, BAND_ROWS_PER_HEIGHT)
        for y in range(ys[0], ys[1]):       # one data cell inverted
            for x in range(xs[10], xs[11]):
                bad[y * w + x] = 255 - bad[y * w + x]
        for name, f in (("damaged", bytes(bad)), ("plain", bytes(w * h))):
            ok = read(f, w, h, "GRAY8") is None
            failures += not ok
            print("%s %s %dx%d refused" % ("PASS" if ok else "FAIL", name, w, h))
    return 1 if failures else 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--selftest"]:
        sys.exit(_selftest())
    print(__doc__.strip())
    sys.exit(2)
