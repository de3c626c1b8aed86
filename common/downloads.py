"""File answers: PDFs and Excel workbooks made in memory, named one way everywhere."""

from django.http import HttpResponse
from django.utils.http import content_disposition_header

PDF = "application/pdf"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
CSV = "text/csv; charset=utf-8"
ICS = "text/calendar; charset=utf-8"


def file_response(data: bytes, filename: str, content_type: str, *, inline: bool = False) -> HttpResponse:
    """``data`` (bytes) as a download named ``filename``, or shown in the browser with
    ``inline`` (PDFs to print). Django builds the Content-Disposition header, so a
    non-ASCII name is encoded as RFC 6266 says."""
    response = HttpResponse(data, content_type=content_type)
    response["Content-Disposition"] = content_disposition_header(not inline, filename)
    return response
