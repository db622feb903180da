"""Reading UNIMARC files: ISO 2709 record by record, or (UNIMARC) MARCXML.

pymarc reads every ISO 2709 record as MARC-8 unless leader/09 is ``a``, which UNIMARC
never sets, and 100$a/26-29 (the character set a UNIMARC record declares) is not to be
trusted: PMB writes ``50  `` (UTF-8) for its UTF-8 databases and ``0103`` for its Latin-1
ones, and files re-encoded on the way keep the old declaration. So each record's
encoding is decided from its own bytes: text that is valid UTF-8 is UTF-8 (a Latin-1
text with accented letters almost never is), otherwise Windows-1252, the Latin-1 that
MySQL's ``latin1`` actually stores (``œ`` is byte 0x9C), otherwise ISO 8859-1. A record
whose bytes are no text in any of them (a control character where a letter should be) is
refused rather than garbled.

The file is cut into records here, not by pymarc's reader, so that one bad record (a
wrong length, a bad directory, a truncated end) is reported with its number and the
records after it are still read.
"""

import io
import re
import unicodedata
import xml.sax
from collections.abc import Iterator
from dataclasses import dataclass, field

import pymarc
from django.utils.translation import gettext as _

RECORD_END = 0x1D
FIELD_END = 0x1E
SUBFIELD_MARK = 0x1F
# Between records some files carry line ends or padding; they are not an error.
PADDING = b"\r\n \t\x00\x1a"

UTF8 = "UTF-8"
LATIN_1 = "Latin-1"
WINDOWS_1252 = "Latin-1 (Windows-1252)"
CODECS = {UTF8: "utf-8", WINDOWS_1252: "cp1252", LATIN_1: "latin-1"}
# 100$a/26-29 as PMB writes it (UTF-8, Latin-1); other values are named as they are.
DECLARED = {"50": UTF8, "01": LATIN_1}


@dataclass
class ReadRecord:
    """One record of a file: parsed, or the reason it could not be."""

    number: int  # 1 for the file's first record
    record: pymarc.Record | None = None
    encoding: str = ""  # what the text was read as
    declared: str = ""  # what 100$a/26-29 says, when it says something
    error: str = ""
    notes: list[str] = field(default_factory=list)

    @property
    def encoding_note(self) -> str:
        if not self.encoding:
            return ""
        if self.declared and self.declared.split()[0] != self.encoding.split()[0]:
            return _("read as %(used)s (100$a says %(declared)s, the bytes say otherwise)") % {
                "used": self.encoding,
                "declared": self.declared,
            }
        return _("read as %(used)s") % {"used": self.encoding}


@dataclass
class FileProblem:
    """Something wrong with the file as a whole (bytes after the last record…)."""

    message: str


def sniff_format(data: bytes) -> str:
    """``xml`` or ``iso2709``, from the first bytes."""
    head = data[:200].lstrip(b"\xef\xbb\xbf" + PADDING)
    return "xml" if head.startswith(b"<") else "iso2709"


def read_file(data: bytes) -> Iterator[ReadRecord | FileProblem]:
    """Every record of a file (ISO 2709 or XML), in order, then any problem of the file."""
    if sniff_format(data) == "xml":
        yield from read_xml(data)
    else:
        yield from read_iso2709(data)


def decide_encoding(text_bytes: bytes) -> str | None:
    """The encoding these bytes are text in, or None when they are text in none."""
    if text_bytes.isascii():
        return UTF8
    # ISO 8859-1 has controls where Windows-1252 has œ, €, curly quotes: a byte there
    # says Windows-1252.
    windows = _WINDOWS_ONLY.search(text_bytes) is not None
    for name in (UTF8, WINDOWS_1252 if windows else LATIN_1):
        try:
            text = text_bytes.decode(CODECS[name])
        except UnicodeDecodeError:
            continue
        if not has_control_characters(text):
            return name
    return None


_WINDOWS_ONLY = re.compile(rb"[\x80-\x9f]")
# The non-sorting marks around a title's article ("\x88L'\x89altra faccia"): UNIMARC's
# NSB and NSE (U+0088, U+0089), and MARC 21's (U+0098, U+009C), which some UNIMARC
# files carry. They are C1 controls, but text, not a sign of a wrong encoding.
NON_SORTING = "\x88\x89\x98\x9c"
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1c\x7f-\x87\x8a-\x97\x99-\x9b\x9d-\x9f]")


def has_control_characters(text: str) -> bool:
    """C0/C1 controls other than tab and line ends, the non-sorting marks, and MARC's
    own 0x1D-0x1F (kept out of the text by the caller): what a byte read in the wrong
    encoding becomes."""
    return bool(_CONTROL.search(text))


def declared_encoding(chunk: bytes) -> str:
    """What 100$a/26-29 declares, found in the raw bytes (before anything is decoded):
    field 100 is found through the record's directory (12 bytes an entry after the
    24-byte leader: tag, length, start), its $a in the field."""
    try:
        base = int(chunk[12:17])
    except ValueError:
        return ""
    directory_end = chunk.find(bytes([FIELD_END]), 24)
    if directory_end < 0:
        return ""
    for entry in range(24, directory_end - 11, 12):
        if chunk[entry : entry + 3] != b"100":
            continue
        try:
            length, start = int(chunk[entry + 3 : entry + 7]), int(chunk[entry + 7 : entry + 12])
        except ValueError:
            return ""
        data = chunk[base + start : base + start + length]
        match = re.search(rb"\x1fa(.{26})(.{4})", data, re.DOTALL)
        if not match:
            return ""
        code = match.group(2)[:2].decode("ascii", "replace")
        return DECLARED.get(code, code.strip())
    return ""


def split_iso2709(data: bytes) -> Iterator[tuple[int, bytes | None, str]]:
    """(number, record bytes, error) for each record; bytes None when it is unreadable,
    number 0 for bytes after the last record that are too few to be one.

    A record's first five bytes say its length; a record must end at that length with
    the record terminator. When it does not, the next terminator ends the bad record and
    reading goes on after it."""
    position, number, size = 0, 0, len(data)
    while True:
        while position < size and data[position] in PADDING:
            position += 1
        if position >= size:
            return
        length_bytes = data[position : position + 5]
        if size - position < 24:
            yield 0, None, _("%(count)d bytes after the last record.") % {"count": size - position}
            return
        number += 1
        if not length_bytes.isdigit():
            end = data.find(bytes([RECORD_END]), position)
            yield number, None, _("No record length at byte %(offset)d.") % {"offset": position}
            if end < 0:
                return
            position = end + 1
            continue
        length = int(length_bytes)
        if position + length > size:
            end = data.find(bytes([RECORD_END]), position)
            if end < 0:
                yield (
                    number,
                    None,
                    _("Truncated: the leader says %(length)d bytes, the file has %(left)d left.")
                    % {"length": length, "left": size - position},
                )
                return
            yield number, None, _("The record length does not match its end.")
            position = end + 1
            continue
        chunk = data[position : position + length]
        if length < 24 or chunk[-1] != RECORD_END:
            end = data.find(bytes([RECORD_END]), position)
            yield number, None, _("The record length does not match its end.")
            if end < 0:
                return
            position = end + 1
            continue
        yield number, chunk, ""
        position += length


def parse_chunk(number: int, chunk: bytes) -> ReadRecord:
    """One ISO 2709 record's bytes, decoded in the encoding its bytes are in."""
    result = ReadRecord(number=number)
    text_part = chunk.translate(None, bytes([RECORD_END, FIELD_END, SUBFIELD_MARK]))
    encoding = decide_encoding(text_part)
    result.declared = declared_encoding(chunk)
    if encoding is None:
        result.error = _(
            "Bad encoding: its bytes are text in neither UTF-8 nor Latin-1 (Windows-1252)."
        )
        return result
    result.encoding = encoding
    try:
        record = pymarc.Record(
            data=chunk,
            force_utf8=encoding == UTF8,
            # Anything but pymarc's default "iso8859-1", which it reads as MARC-8.
            file_encoding=CODECS[encoding],
            utf8_handling="strict",
        )
    except pymarc.exceptions.RecordDirectoryInvalid:
        result.error = _("Bad directory: its entries do not divide into fields.")
    except pymarc.exceptions.BaseAddressInvalid:
        result.error = _("Bad leader: the data would start after the end of the record.")
    except pymarc.exceptions.BaseAddressNotFound:
        result.error = _("Bad leader: no address where the data starts.")
    except pymarc.exceptions.NoFieldsFound:
        result.error = _("The record has no fields.")
    except (pymarc.exceptions.PymarcException, ValueError, IndexError, UnicodeError):
        result.error = _("Bad directory: an entry points outside the record or is not a number.")
    else:
        if not check_fields(record):
            result.error = _(
                "Bad directory: an entry points outside the record or is not a number."
            )
        else:
            result.record = record
    return result


def check_fields(record: pymarc.Record) -> bool:
    """pymarc slices fields from the directory's offsets without checking them; a field
    cut at a wrong place shows as a tag that is not three digits or letters."""
    return all(re.fullmatch(r"[0-9A-Za-z]{3}", f.tag or "") for f in record.fields)


def read_iso2709(data: bytes) -> Iterator[ReadRecord | FileProblem]:
    for number, chunk, error in split_iso2709(data):
        if chunk is None:
            if number == 0:
                yield FileProblem(error)
            else:
                yield ReadRecord(number=number, error=error)
            continue
        yield parse_chunk(number, chunk)


class _Handler(pymarc.XmlHandler):
    def __init__(self):
        super().__init__(strict=False, normalize_form="NFC")
        self.read: list[pymarc.Record] = []

    def process_record(self, record):
        self.read.append(record)


def read_xml(data: bytes) -> Iterator[ReadRecord | FileProblem]:
    """MARCXML records, in the MARC 21 slim namespace or in none (PMB writes both).

    The XML parser decodes the text as the file's declaration says; a file that is not
    well formed is refused whole (XML gives no way to resynchronise inside it)."""
    handler = _Handler()
    try:
        pymarc.parse_xml(io.BytesIO(data), handler)
    except xml.sax.SAXParseException as error:
        yield FileProblem(
            _("Not well-formed XML at line %(line)d, column %(column)d: %(reason)s")
            % {
                "line": error.getLineNumber(),
                "column": error.getColumnNumber(),
                "reason": error.getMessage(),
            }
        )
        return
    except Exception as error:  # noqa: BLE001 - whatever the parser trips on, no traceback
        yield FileProblem(_("Unreadable XML: %(reason)s") % {"reason": error})
        return
    declared = re.search(rb"encoding=[\"']([A-Za-z0-9._-]+)", data[:200])
    encoding = declared.group(1).decode("ascii").upper() if declared else UTF8
    for number, record in enumerate(handler.read, start=1):
        result = ReadRecord(number=number, record=record, encoding=encoding)
        for one in record.fields:
            text = one.data if one.is_control_field() else " ".join(s.value for s in one)
            if text and has_control_characters(unicodedata.normalize("NFC", text)):
                result.record, result.error = (
                    None,
                    _("A control character in field %(tag)s.") % {"tag": one.tag},
                )
                break
        yield result
