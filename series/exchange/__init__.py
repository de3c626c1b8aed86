"""Results exchanged between laptops (issue 20 item 1, ``docs/exchange.md``).

One job per module:

- ``signing``: the signed results file (format, HMAC-SHA256 with the series' secret, the
  exporting event's identity ``source_key``, every refusal of a damaged, foreign or cut-short
  file) and the series' key file carried between laptops (a write: a service);
- ``export``: an event's results as the file's contents (it reads only, through the read side;
  a file for download, so presentation, as the workbook);
- ``importer``: the preview and the import into the series' final (qualifying teams through
  the registration checks, their link to where they qualified, the district's places).
"""
