#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Edits of X.509 certificates (DER) for the consumer tests (tools/lib/consumers.sh).

  der.py tbs-sha256 CERT           the SHA-256 of the TBSCertificate, in hex: the kernel's
                                   "tbs:" blacklist hash (certs/blacklist.c)
  der.py resize-sig CERT N OUT     the signature cut by N bytes (N < 0) or grown by N zero
                                   bytes, the lengths around it encoded again
  der.py set-akid CERT FROM TO OUT the authority key identifier of CERT, which must be the
                                   subject key identifier of certificate FROM, replaced by
                                   that of TO (both 20 bytes: the signature is then wrong,
                                   and made with a key other than the one it names)
"""

import hashlib
import sys

SEQUENCE = 0x30
BIT_STRING = 0x03
# id-ce-subjectKeyIdentifier (2.5.29.14) and id-ce-authorityKeyIdentifier (2.5.29.35).
SKID_OID = bytes.fromhex("0603551d0e")
AKID_OID = bytes.fromhex("0603551d23")


def element(der, off):
    """The tag, the offset of the contents and their end, of the element at off."""
    tag, n = der[off], der[off + 1]
    start = off + 2
    if n & 0x80:
        size = n & 0x7F
        n = int.from_bytes(der[start : start + size], "big")
        start += size
    return tag, start, start + n


def encode(tag, contents):
    n = len(contents)
    if n < 0x80:
        return bytes([tag, n]) + contents
    size = (n.bit_length() + 7) // 8
    return bytes([tag, 0x80 | size]) + n.to_bytes(size, "big") + contents


def certificate(der):
    """The TBSCertificate, signatureAlgorithm and signature BIT STRING elements, whole."""
    tag, start, end = element(der, 0)
    assert tag == SEQUENCE and end == len(der), "not one DER certificate"
    parts = []
    while start < end:
        _, contents, stop = element(der, start)
        parts.append(der[start:stop])
        start = stop
    assert len(parts) == 3 and parts[2][0] == BIT_STRING, "not a certificate"
    return parts


def key_id(der, oid):
    """The 20-byte key identifier after extension oid (SKID: OCTET STRING in OCTET
    STRING; AKID: [0] keyIdentifier in SEQUENCE in OCTET STRING)."""
    at = der.index(oid) + len(oid)
    wrapped = {SKID_OID: bytes.fromhex("0416 0414"), AKID_OID: bytes.fromhex("0418 3016 8014")}[oid]
    assert der[at : at + len(wrapped)] == wrapped, "not a 20-byte key identifier"
    return der[at + len(wrapped) : at + len(wrapped) + 20]


def main(argv):
    der = open(argv[2], "rb").read()
    if argv[1] == "tbs-sha256":
        print(hashlib.sha256(certificate(der)[0]).hexdigest())
    elif argv[1] == "resize-sig":
        tbs, alg, sig = certificate(der)
        _, start, _ = element(sig, 0)
        n = int(argv[3])
        bits = sig[start:] + bytes(n) if n >= 0 else sig[start:n]
        open(argv[4], "wb").write(encode(SEQUENCE, tbs + alg + encode(BIT_STRING, bits)))
    elif argv[1] == "set-akid":
        old = key_id(open(argv[3], "rb").read(), SKID_OID)
        new = key_id(open(argv[4], "rb").read(), SKID_OID)
        assert key_id(der, AKID_OID) == old and der.count(old) == 1, "not issued by FROM"
        open(argv[5], "wb").write(der.replace(old, new))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
