"""Certificates from the database to PDF, with the print log written in the same transaction.

The drawing is ``awards.paper.certificates`` (vertical text on the club's paper); this module
chooses the certificates (``awards.reports``) and records what was printed
(``awards.services.record_prints``). Used by the organiser's pages and ``print_awards``.
"""

from __future__ import annotations

from django.db import transaction

from awards import services
from awards.paper import certificates as drawing
from awards.reports import paper_layout


def certificates_pdf(certificates, settings, *, draw_frame=None) -> bytes:
    """The PDF of ``certificates`` (``awards.reports.Certificate``), one page each, on the
    settings' paper (``draw_frame`` overrides the setting: the preview draws it). Logs nothing."""
    texts = [c.text for c in certificates]
    return drawing.render_certificates(texts, paper_layout(settings, draw_frame=draw_frame))


def calibration_pdf(settings) -> bytes:
    """The calibration page of the settings' paper: a thin frame where the text area lies and
    rulers in mm, to line the printer up with the bought paper."""
    return drawing.render_calibration(paper_layout(settings))


def print_certificates(event, certificates, settings, user=None) -> bytes:
    """The PDF of ``certificates`` and one print-log line each, in one transaction: the log is
    written only when the PDF was made, and nothing is logged when writing it fails.

    In: the event, the certificates (at least one: callers refuse an empty choice), the
    settings, the user printing (None from a command). Out: the PDF bytes.
    """
    with transaction.atomic():
        data = certificates_pdf(certificates, settings)
        printed = [
            services.Printed(c.key, c.fingerprint, c.summary, c.text.recipient, c.text.team, c.text.place)
            for c in certificates
        ]
        services.record_prints(event, printed, user)
    return data
