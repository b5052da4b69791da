"""HTTP for the notebook client: one request with the standard library, errors as VitrineError.

A host answers every error as JSON `{"status_code", "detail", "code"}`; the client raises it as
a `VitrineError` that keeps all three, so a notebook shows the host's own explanation. A read
(GET, HEAD) the host refuses for now (503 with `Retry-After`, as it does past its bounds on
store lookups or under load) is asked again after the wait it names, a few times.
"""
from __future__ import annotations

import email.utils
import json
import random
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Dict, Mapping, Optional
from ._version import __version__


#: How many times a read refused with 503 and Retry-After is asked again.
BUSY_RETRIES = 4
#: The longest wait taken from a Retry-After, in seconds.
MAX_RETRY_AFTER_S = 10.0


def retry_after_s(header: Optional[str], now: Optional[float] = None) -> Optional[float]:
    """The wait a Retry-After names (seconds or an HTTP date), bounded; None without a usable one."""
    if header is None:
        return None
    text = header.strip()
    if text.isdigit():
        wait = float(text)
    else:
        try:
            when = email.utils.parsedate_to_datetime(text)
        except (TypeError, ValueError):
            return None
        wait = when.timestamp() - (time.time() if now is None else now)
    return min(MAX_RETRY_AFTER_S, max(0.0, wait))


class VitrineError(Exception):
    """A host answered with an error (or could not be reached: `status` is then 0)."""

    def __init__(self, status: int, detail: str, code: Optional[str] = None) -> None:
        super().__init__(f"{status}: {detail}" if status else detail)
        self.status = status
        self.detail = detail
        self.code = code


class Response:
    """A finished answer: status, headers (lower-case names) and the whole body."""

    def __init__(self, status: int, headers: Mapping[str, str], body: bytes) -> None:
        self.status = status
        self.headers = {k.lower(): v for k, v in headers.items()}
        self.body = body

    @property
    def content_type(self) -> str:
        return self.headers.get("content-type", "").split(";")[0].strip().lower()

    def json(self) -> Any:
        return json.loads(self.body.decode("utf-8")) if self.body else None


def query_string(query: Optional[Mapping[str, Any]]) -> str:
    """`?a=1&b=x` of the values that are not None (lists and dicts as JSON, booleans lower-case)."""
    if not query:
        return ""
    pairs = []
    for key, value in query.items():
        if value is None:
            continue
        if isinstance(value, bool):
            value = "true" if value else "false"
        elif isinstance(value, (dict, list, tuple)):
            value = json.dumps(value, separators=(",", ":"))
        pairs.append((key, str(value)))
    return "?" + urllib.parse.urlencode(pairs) if pairs else ""


def error_of(status: int, body: bytes) -> VitrineError:
    """The host's JSON error body as a VitrineError (a body that is not JSON is quoted as text)."""
    try:
        payload = json.loads(body.decode("utf-8"))
        if isinstance(payload, dict) and "detail" in payload:
            return VitrineError(status, str(payload["detail"]), payload.get("code"))
    except ValueError:
        pass
    text = body.decode("utf-8", "replace").strip()[:500]
    return VitrineError(status, text or f"HTTP {status}")


class Http:
    """Requests to one host: its base URL, the bearer token when given, a timeout per request."""

    def __init__(self, url: str, token: Optional[str], timeout: float) -> None:
        parts = urllib.parse.urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise ValueError(f"a host URL is http(s)://HOST:PORT, not {url!r}")
        self.base = url.rstrip("/")
        self.token = token
        self.timeout = timeout

    def headers(self, extra: Optional[Mapping[str, str]] = None) -> Dict[str, str]:
        out = {"User-Agent": f"vitrine-python/{__version__}"}
        if self.token:
            out["Authorization"] = f"Bearer {self.token}"
        if extra:
            out.update(extra)
        return out

    def open(self, method: str, path: str, *, query: Optional[Mapping[str, Any]] = None, body: Optional[bytes] = None,
             headers: Optional[Mapping[str, str]] = None, timeout: Optional[float] = None) -> Any:
        """The open response (for streams); raises VitrineError for an error status."""
        request = urllib.request.Request(self.base + path + query_string(query), data=body, method=method, headers=self.headers(headers))
        retries = 0
        while True:
            try:
                return urllib.request.urlopen(request, timeout=self.timeout if timeout is None else timeout)
            except urllib.error.HTTPError as error:
                body_bytes = error.read()
                wait = retry_after_s(error.headers.get("Retry-After")) if error.headers else None
                if method in ("GET", "HEAD") and error.code == 503 and wait is not None and retries < BUSY_RETRIES:
                    retries += 1
                    # A little spread, so clients refused together do not all come back at once.
                    time.sleep(wait + random.random() * 0.25)
                    continue
                raise error_of(error.code, body_bytes) from None
            except urllib.error.URLError as error:
                raise VitrineError(0, f"cannot reach {self.base}: {error.reason}") from None

    def send(self, method: str, path: str, *, query: Optional[Mapping[str, Any]] = None, body: Optional[bytes] = None,
             headers: Optional[Mapping[str, str]] = None) -> Response:
        with self.open(method, path, query=query, body=body, headers=headers) as answer:
            return Response(answer.status, dict(answer.headers.items()), answer.read())

    def json(self, method: str, path: str, payload: Any = None, *, query: Optional[Mapping[str, Any]] = None) -> Any:
        body = None if payload is None else json.dumps(payload).encode("utf-8")
        headers = {"Content-Type": "application/json"} if body is not None else None
        return self.send(method, path, query=query, body=body, headers=headers).json()


def _seg(value: str) -> str:
    """`value` as one segment of a URL path (an id), refused when it is not a non-empty string."""
    if not isinstance(value, str) or value == "":
        raise ValueError(f"an id is a non-empty string, not {value!r}")
    return urllib.parse.quote(value, safe="")
