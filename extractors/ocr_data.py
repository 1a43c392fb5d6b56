"""Where this machine keeps Tesseract's language data, found without loading MuPDF, so that `kg doctor` can say
whether OCR will work without the start-up cost of the parser (extractors/ocr.py reads the pages)."""

from __future__ import annotations

import glob
import os
from functools import cache
from pathlib import Path

ENGINE = "tesseract"
LANGUAGE = "eng"
# Where Debian and Ubuntu (one folder per Tesseract version), then Fedora and Arch, put the language data;
# TESSDATA_PREFIX, when set, comes first.
_DEBIAN_TESSDATA = "/usr/share/tesseract-ocr/*/tessdata"
_OTHER_TESSDATA = "/usr/share/tessdata"


@cache
def tessdata() -> str | None:
    """The folder holding Tesseract's language data for LANGUAGE, or None when this machine has none."""
    candidates = [os.environ["TESSDATA_PREFIX"]] if os.environ.get("TESSDATA_PREFIX") else []
    for folder in [*candidates, *sorted(glob.glob(_DEBIAN_TESSDATA), reverse=True), _OTHER_TESSDATA]:
        if (Path(folder) / f"{LANGUAGE}.traineddata").is_file():
            return folder
    return None
