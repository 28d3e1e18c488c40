"""TLS for the link to a clinic model server: the clinic CA, or the server certificate pinned.

A pinned certificate is checked inside the TLS handshake (`PinnedSSLSocket.do_handshake`),
before a single byte of the request, which can hold patient data, is written. With a pin
alone, trust rests on the pin (a self-signed clinic certificate has no chain to verify);
with a CA file the chain and the host name are verified as well, then the pin if set.
"""

from __future__ import annotations

import hashlib
import hmac
import ssl
from pathlib import Path

from engine.errors import ConfigError


class CertificatePinMismatch(ssl.SSLCertVerificationError):
    """The server presented a certificate whose sha256 is not the pinned one."""


def certificate_sha256(der: bytes) -> str:
    return hashlib.sha256(der).hexdigest()


def pem_certificate_sha256(pem_text: str) -> str:
    """The pin of a PEM certificate (what `chartside remote pin CERT.pem` prints)."""
    return certificate_sha256(ssl.PEM_cert_to_DER_cert(pem_text))


class PinnedSSLSocket(ssl.SSLSocket):
    def do_handshake(self, block: bool = False) -> None:
        super().do_handshake(block)
        pin = getattr(self.context, "pin_sha256", "")
        if pin:
            der = self.getpeercert(binary_form=True) or b""
            if not hmac.compare_digest(certificate_sha256(der), pin):
                self.close()
                raise CertificatePinMismatch(
                    f"server certificate sha256 {certificate_sha256(der)} is not the pinned {pin}")


class PinnedSSLContext(ssl.SSLContext):
    sslsocket_class = PinnedSSLSocket
    pin_sha256 = ""


def client_context(pin_sha256: str = "", ca_file: str = "") -> ssl.SSLContext:
    """A TLS 1.2+ client context for the model server (see the module docstring)."""
    context = PinnedSSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.pin_sha256 = pin_sha256
    if ca_file:
        if not Path(ca_file).is_file():
            raise ConfigError(f"remote.ca_file {ca_file} does not exist",
                              user_message="The clinic CA file for the model server was not found.")
        context.load_verify_locations(cafile=ca_file)
        context.check_hostname = True
        context.verify_mode = ssl.CERT_REQUIRED
    elif pin_sha256:
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
    else:
        raise ConfigError("https without a pin or CA file",
                          user_message="Set the model server's certificate pin or the clinic CA file.")
    return context
