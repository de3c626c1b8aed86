"""Static files with hashed names for a long cache (issue 34 item 5).

``collectstatic`` (``make serve`` runs it) writes each file under a name with a hash of its
contents (``css/site.3f2a9c1b.css``) and a gzip and Brotli copy (WhiteNoise's
``CompressedManifestStaticFilesStorage``); WhiteNoise then sends those names with
``Cache-Control: max-age=315360000, public, immutable`` (a changed file has a new name, so a
tablet never keeps an old one). Without ``collectstatic`` (development, the tests) there is no
manifest: the pages link the plain names, which WhiteNoise's finders serve with a 60-second cache.
"""

from django.contrib.staticfiles.storage import StaticFilesStorage
from whitenoise.storage import CompressedManifestStaticFilesStorage


class HashedStaticStorage(CompressedManifestStaticFilesStorage):
    """WhiteNoise's hashed, compressed storage; the plain name while no manifest exists."""

    def url(self, name, force=False):
        """The address of ``name``: hashed once ``collectstatic`` wrote the manifest, plain before."""
        if not self.hashed_files and not force:
            return StaticFilesStorage.url(self, name)
        return super().url(name, force)
