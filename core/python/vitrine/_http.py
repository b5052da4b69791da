"""HTTP for the notebook client: one request with the standard library, errors as VitrineError.

A host answers every error as JSON `{"status_code", "detail", "code"}`; the client raises it as
a `VitrineError` that keeps all three, so a notebook shows the host's own explanation.
"""
from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Dict, Mapping, Optional


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
        out = {"User-Agent": "vitrine-python"}
        if self.token:
            out["Authorization"] = f"Bearer {self.token}"
        if extra:
            out.update(extra)
        return out

    def open(self, method: str, path: str, *, query: Optional[Mapping[str, Any]] = None, body: Optional[bytes] = None,
             headers: Optional[Mapping[str, str]] = None, timeout: Optional[float] = None) -> Any:
        """The open response (for streams); raises VitrineError for an error status."""
        request = urllib.request.Request(self.base + path + query_string(query), data=body, method=method, headers=self.headers(headers))
        try:
            return urllib.request.urlopen(request, timeout=self.timeout if timeout is None else timeout)
        except urllib.error.HTTPError as error:
            raise error_of(error.code, error.read()) from None
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
