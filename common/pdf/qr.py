"""QR codes on the paper: the module matrix of a URL and drawing it with the pen.

The matrix is reportlab's own encoding (``QrCodeWidget``, error correction level M); only
the mask choice is rewritten, with the same result: the penalty is scored on strings and
integers (about 10x faster, same values), and the eight masked candidates are made from one
unmasked matrix by XOR on row bit masks instead of eight full rebuilds (issue 17 item 4).  The
payload should be ASCII: readers disagree on non-ASCII payloads (``docs/rules/paper.md``).
No Django.
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import chain, pairwise, zip_longest

from reportlab.graphics.barcode.qr import QrCodeWidget
from reportlab.graphics.barcode.qrencoder import QRCode, QRMath, QRUtil

from common.pdf.pen import WHITE, Pen

__all__ = ["clear_qr_cache", "draw_qr", "qr_modules", "qr_penalty"]

FINDER_LIKE = "10111010000"
_RUN = re.compile(r"0{5,}|1{5,}")

# reportlab rebuilds the Reed-Solomon generator polynomial for every code it encodes; the
# polynomial depends only on its length and is never modified, so it is kept (a third of the
# encoding time of a recording sheet's URL).
if not hasattr(QRUtil.getErrorCorrectPolynomial, "cache_info"):
    QRUtil.getErrorCorrectPolynomial = staticmethod(lru_cache(maxsize=32)(QRUtil.getErrorCorrectPolynomial))

# GF(256) of the QR code, as reportlab's QRMath defines it: antilog (doubled, so a sum of two
# logs needs no modulo) and log tables.
_EXP = [QRMath.gexp(i) for i in range(255)] * 2
_LOG = [0] * 256
for _i in range(255):
    _LOG[_EXP[_i]] = _i


def _ec_codewords(data: list[int], ec_count: int) -> list[int]:
    """The Reed-Solomon error correction codewords of one block: the remainder of
    data(x)·x^ec_count by the generator polynomial, by the usual shift register. The same values
    as reportlab's ``QRPolynomial.mod`` (which builds a new polynomial per data byte,
    recursively: a third of a sheet's QR time), checked against it in the tests."""
    generator = QRUtil.getErrorCorrectPolynomial(ec_count).num[1:]  # monic: the leading 1 dropped
    logs = [_LOG[g] if g else None for g in generator]
    ecc = [0] * ec_count
    for byte in data:
        factor = byte ^ ecc[0]
        ecc = ecc[1:]
        ecc.append(0)
        if factor:
            lf = _LOG[factor]
            for j, lg in enumerate(logs):
                if lg is not None:
                    ecc[j] ^= _EXP[lg + lf]
    return ecc


def _create_bytes(buffer, rs_blocks) -> list[int]:
    """reportlab's ``QRCode.createBytes`` with :func:`_ec_codewords`: the data codewords of
    each block, then their error correction codewords, interleaved as the standard says."""
    offset, dc_data, ec_data = 0, [], []
    for block in rs_blocks:
        chunk = buffer.buffer[offset : offset + block.dataCount]
        offset += block.dataCount
        dc_data.append(chunk)
        ec_data.append(_ec_codewords(chunk, block.totalCount - block.dataCount))
    return [d for group in chain(zip_longest(*dc_data), zip_longest(*ec_data)) for d in group if d is not None]


_reportlab_create_bytes = QRCode.createBytes
QRCode.createBytes = staticmethod(_create_bytes)


def qr_penalty(modules: list[list[bool]]) -> int:
    """Mask penalty, the same value as reportlab's ``QRUtil.getLostPoint`` but computed
    with string / integer operations (about 10x faster; equality is checked in the tests).
    """
    return _penalty_rows(["".join("1" if m else "0" for m in row) for row in modules])


def _penalty_rows(rows: list[str]) -> int:
    """:func:`qr_penalty` of the matrix given as rows of "0"/"1" (module j = character j)."""
    n = len(rows)
    cols = ["".join(col) for col in zip(*rows, strict=True)]
    # The lines joined by "2", which no pattern holds: one regex pass and one count over the
    # whole matrix instead of one per line (no match runs across two lines).
    # rule 1: runs of five or more modules of one colour score (length - 2)
    runs = _RUN.findall("2".join(rows + cols))
    score = sum(map(len, runs)) - 2 * len(runs)
    # rule 3 as reportlab scores it: rows only (its column pass compares tuples with a
    # list and never matches), one direction, non-overlapping, last cell excluded
    score += 40 * "2".join(line[:-1] for line in rows).count(FINDER_LIKE)
    # rule 2: 2x2 blocks of one colour
    ints = [int(line[::-1], 2) for line in rows]  # bit j = module j
    mask = (1 << (n - 1)) - 1
    for a, b in pairwise(ints):
        same_v = ~(a ^ b)
        same_h = ~(a ^ (a >> 1))
        score += 3 * (same_v & (same_v >> 1) & same_h & mask).bit_count()
    # rule 4: proportion of dark modules
    dark = sum(line.count("1") for line in rows)
    score += 10 * (abs(100 * dark // (n * n) - 50) // 5)
    return score


def qr_modules(url: str) -> list[list[bool]]:
    """Module matrix (rows of True = dark) of ``url`` encoded by reportlab's QrCodeWidget
    (error correction level M).

    Same result as ``widget.qr.make()``; only the mask-penalty scoring is faster. The last
    1,024 URLs encoded stay in the process (as rows of "0"/"1", about 2 KB each): a reprinted
    sheet or a page of court links shown again is not encoded again (issue 31 item 2).
    """
    return [[m == "1" for m in row] for row in _encoded(url)]


@lru_cache(maxsize=1024)
def _encoded(url: str) -> tuple[str, ...]:
    """:func:`qr_modules` of ``url`` as rows of "0"/"1" (module j = character j)."""
    widget = QrCodeWidget(url, barLevel="M")
    qr = widget.qr
    if qr.version is None:
        qr.version = qr.calculate_version()
    qr.makeImpl(True, 0)  # function patterns, light format bits (test), data under mask 0
    n = qr.moduleCount
    data = [0] * n  # bit j of row r: module (r, j) holds data
    for col, row in qr.dataPosIterator():
        data[row] |= 1 << col
    mask0 = _mask_rows(0, n)
    # unmasked data (bits outside ``data``: the fixed patterns), then each mask by XOR
    plain = [_row_int(qr.modules[r]) ^ (mask0[r] & data[r]) for r in range(n)]
    best_score, best_rows, best_mask = None, None, 0
    for mask in range(8):
        pattern = _mask_rows(mask, n)
        rows = [format(plain[r] ^ (pattern[r] & data[r]), f"0{n}b")[::-1] for r in range(n)]
        score = _penalty_rows(rows)
        if best_score is None or score < best_score:
            best_score, best_rows, best_mask = score, rows, mask
    # The chosen candidate is already built: only its format (and version) bits, light in the
    # test build, are written, instead of a ninth full build by ``makeImpl(False, mask)``.
    qr.modules = [[m == "1" for m in row] for row in best_rows]
    qr.setupTypeInfo(False, best_mask)
    if qr.version >= 7:
        qr.setupTypeNumber(False)
    return tuple("".join("1" if m else "0" for m in row) for row in qr.modules)


def clear_qr_cache() -> None:
    """Forget the encoded URLs (the benchmarks time a first print)."""
    _encoded.cache_clear()


def _row_int(row) -> int:
    """A row of modules as an integer: bit j = module j dark."""
    return int("".join("1" if m else "0" for m in reversed(row)), 2)


@lru_cache(maxsize=64)
def _mask_rows(mask: int, n: int) -> tuple[int, ...]:
    """Mask pattern ``mask`` on an ``n``×``n`` matrix, one integer per row (bit j = column j)."""
    flip = QRUtil.getMask(mask)
    return tuple(sum(1 << c for c in range(n) if flip(r, c)) for r in range(n))


def draw_qr(pen: Pen, modules: list[list[bool]], x: float, y: float, size: float, border: int = 4) -> None:
    """Draw the QR code ``modules`` (True = dark, from :func:`qr_modules`) with a quiet zone
    of ``border`` modules into the square of side ``size`` points at (x, y).

    The dark runs of each row are written as one path in module units under a scaling
    transform (integers, no float formatting per rectangle: a sheet's QR code costs a tenth
    of what 200 formatted rectangles did; the same picture)."""
    n = len(modules)
    box = size / (n + 2 * border)
    c = pen.c
    c.setFillColorRGB(*WHITE)
    c.rect(x, y, size, size, stroke=0, fill=1)
    c.setFillColorRGB(0, 0, 0)
    ops = []
    for r, row in enumerate(modules):
        bottom = n + border - 1 - r  # module rows counted from the bottom of the square
        col = 0
        while col < n:
            if row[col]:
                start = col
                while col < n and row[col]:
                    col += 1
                ops.append(f"{start + border} {bottom} {col - start} 1 re")
            else:
                col += 1
    if not ops:
        return
    c.saveState()
    c.transform(box, 0, 0, box, x, y)
    c.addLiteral("\n".join(ops) + "\nf")
    c.restoreState()
