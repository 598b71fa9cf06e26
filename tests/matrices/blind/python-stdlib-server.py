#!/usr/bin/env python3
"""Asset Group Interface server (CreateAssetGroup / ListAssetGroups).

Built from /work/shared/spec-source/asset-group-interface.md only.
Python 3.11 standard library: ThreadingHTTPServer + sqlite3.
Choices for points the spec marks "not shown" are listed in CHOICES.md.

Environment:
  PORT              listen port (default 8099), always bound to 127.0.0.1
  TOKEN             user u1, no channel
  TOKEN_OTHER_USER  user u2, no channel
  TOKEN_CHANNEL_A   user u1, bound to channel A
  TOKEN_CHANNEL_B   user u1, bound to channel B
  LIST_LAG_SECONDS  visibility lag of created groups in lists (default 1.0)
  DB_PATH           sqlite file (default ":memory:")
  CREATE_RATE_PER_SEC  creates per user per second before 429 (default 100)
"""
import json
import os
import sqlite3
import sys
import threading
import time
import uuid
from collections import deque
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

API_PATHS = ("/v1/media_assets/", "/v1/media_assets")
API_VERSION = "2024-01-01"
SERVICE_NAME = os.environ.get("SERVICE_NAME", "media_assets")
REGION = os.environ.get("REGION", "cn-beijing")
LIST_LAG = min(2.0, max(0.5, float(os.environ.get("LIST_LAG_SECONDS", "1.0"))))
CREATE_RATE = int(os.environ.get("CREATE_RATE_PER_SEC", "100"))
MAX_BODY = 1024 * 1024
DEFAULT_PAGE_SIZE = 10
MAX_PAGE_SIZE = 100
FIELD_MAX = {"Name": 1024, "Title": 1024, "ProjectName": 1024, "Description": 10000}
GROUP_TYPES = ("AIGC",)

# Error kinds per (operation, status), from the spec's Errors table.
ERR_KIND = {
    ("ListAssetGroups", 400): "AssetBadRequest",
    ("CreateAssetGroup", 400): "AssetError",
    (None, 401): "TokenAuthError",
    (None, 403): "AssetError",
    ("CreateAssetGroup", 429): "UpstreamRateLimit",
    (None, 500): "AssetError",
    ("CreateAssetGroup", 503): "AssetError",
}


def load_tokens():
    """token -> (user_id, channel or None). Unset env vars give no token."""
    spec = [("TOKEN", "u1", None), ("TOKEN_OTHER_USER", "u2", None),
            ("TOKEN_CHANNEL_A", "u1", "A"), ("TOKEN_CHANNEL_B", "u1", "B")]
    tokens = {}
    for env, user, channel in spec:
        value = os.environ.get(env, "").strip()
        if value:
            tokens[value] = (user, channel)
    return tokens


TOKENS = load_tokens()


class ApiError(Exception):
    def __init__(self, status, message, kind=None):
        super().__init__(message)
        self.status = status
        self.message = message
        self.kind = kind


def now_iso(ts):
    return datetime.fromtimestamp(ts, tz=timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


# --------------------------------------------------------------------------
# Storage
# --------------------------------------------------------------------------
class Store:
    def __init__(self, path):
        self.lock = threading.Lock()
        self.db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=MEMORY" if path == ":memory:" else "PRAGMA journal_mode=WAL")
        self.db.execute(
            """CREATE TABLE IF NOT EXISTS asset_groups (
                   seq            INTEGER PRIMARY KEY AUTOINCREMENT,
                   id             TEXT NOT NULL UNIQUE,
                   user_id        TEXT NOT NULL,
                   channel        TEXT,
                   asset_space_id TEXT NOT NULL,
                   name           TEXT NOT NULL,
                   title          TEXT NOT NULL,
                   description    TEXT NOT NULL,
                   group_type     TEXT NOT NULL,
                   project_name   TEXT NOT NULL,
                   created_at     REAL NOT NULL,
                   updated_at     REAL NOT NULL,
                   visible_at     REAL NOT NULL)""")
        self.db.execute("CREATE INDEX IF NOT EXISTS ix_ag_user ON asset_groups(user_id, channel, visible_at)")

    def create(self, user_id, channel, fields):
        ts = time.time()
        group_id = "group-" + uuid.uuid4().hex[:20]
        space = "space-%s" % user_id if channel is None else "space-%s-%s" % (user_id, channel)
        with self.lock:
            self.db.execute(
                "INSERT INTO asset_groups (id, user_id, channel, asset_space_id, name, title, description,"
                " group_type, project_name, created_at, updated_at, visible_at)"
                " VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                (group_id, user_id, channel, space, fields["Name"], fields["Title"], fields["Description"],
                 fields["GroupType"], fields["ProjectName"], ts, ts, ts + LIST_LAG))
        return group_id

    def list(self, user_id, channel, filters, page_number, page_size):
        # The list reads a lagging "snapshot": a row becomes visible LIST_LAG seconds after creation.
        where = ["user_id = ?", "visible_at <= ?"]
        args = [user_id, time.time()]
        if channel is not None:
            where.append("channel = ?")
            args.append(channel)
        if filters.get("AssetSpaceId") is not None:
            where.append("asset_space_id = ?")
            args.append(filters["AssetSpaceId"])
        if filters.get("GroupType") is not None:
            where.append("group_type = ?")
            args.append(filters["GroupType"])
        if filters.get("Id") is not None:
            ids = filters["Id"]
            where.append("id IN (%s)" % ",".join("?" * len(ids)))
            args.extend(ids)
        if filters.get("Name") is not None:
            where.append("instr(name, ?) > 0")  # case-sensitive substring match
            args.append(filters["Name"])
        cond = " AND ".join(where)
        with self.lock:
            total = self.db.execute("SELECT COUNT(*) FROM asset_groups WHERE " + cond, args).fetchone()[0]
            rows = self.db.execute(
                "SELECT id, asset_space_id, name, group_type, project_name, created_at, updated_at,"
                " title, description FROM asset_groups WHERE " + cond +
                " ORDER BY created_at DESC, seq DESC LIMIT ? OFFSET ?",
                args + [page_size, (page_number - 1) * page_size]).fetchall()
        items = [{
            "Id": r[0], "AssetSpaceId": r[1], "Name": r[2], "GroupType": r[3], "ProjectName": r[4],
            "CreateTime": now_iso(r[5]), "UpdateTime": now_iso(r[6]), "Title": r[7], "Description": r[8],
        } for r in rows]
        return total, items


class RateLimiter:
    """Sliding one-second window per user for CreateAssetGroup."""

    def __init__(self, per_second):
        self.per_second = per_second
        self.lock = threading.Lock()
        self.hits = {}

    def allow(self, key):
        now = time.monotonic()
        with self.lock:
            q = self.hits.setdefault(key, deque())
            while q and now - q[0] >= 1.0:
                q.popleft()
            if self.per_second > 0 and len(q) >= self.per_second:
                return False
            q.append(now)
            return True


STORE = Store(os.environ.get("DB_PATH", ":memory:"))
LIMITER = RateLimiter(CREATE_RATE)


# --------------------------------------------------------------------------
# Validation
# --------------------------------------------------------------------------
def validate_create(body):
    if not isinstance(body, dict):
        raise ApiError(400, "request body must be a JSON object")
    out = {}
    for field, default in (("Name", None), ("Title", ""), ("Description", ""),
                           ("GroupType", "AIGC"), ("ProjectName", "default")):
        value = body.get(field)
        if value is None:
            if default is None:
                raise ApiError(400, "%s is required" % field)
            value = default
        if not isinstance(value, str):
            raise ApiError(400, "%s must be a string" % field)
        if field in FIELD_MAX and len(value) > FIELD_MAX[field]:
            raise ApiError(400, "%s is longer than %d characters" % (field, FIELD_MAX[field]))
        out[field] = value
    if not out["Name"].strip():
        raise ApiError(400, "Name must not be empty")
    if out["GroupType"] not in GROUP_TYPES:
        raise ApiError(400, "GroupType must be one of: %s" % ", ".join(GROUP_TYPES))
    return out


def _int_param(body, name, default, lo, hi):
    value = body.get(name)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int):
        raise ApiError(400, "%s must be an integer" % name)
    if value < lo or (hi is not None and value > hi):
        raise ApiError(400, "%s must be between %d and %s" % (name, lo, hi if hi is not None else "inf"))
    return value


def validate_list(body):
    if not isinstance(body, dict):
        raise ApiError(400, "request body must be a JSON object")
    src = dict(body)
    nested = body.get("Filter")
    if nested is not None:  # filters may also be wrapped in a "Filter" object
        if not isinstance(nested, dict):
            raise ApiError(400, "Filter must be an object")
        for k, v in nested.items():
            src.setdefault(k, v)
    filters = {}
    for name in ("AssetSpaceId", "GroupType", "Name"):
        value = src.get(name)
        if value is None or value == "":
            continue
        if not isinstance(value, str):
            raise ApiError(400, "%s must be a string" % name)
        filters[name] = value
    ids = src.get("Id")
    if ids is not None and ids != "" and ids != []:
        if isinstance(ids, str):
            ids = [ids]
        if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
            raise ApiError(400, "Id must be a string or an array of strings")
        if len(ids) > MAX_PAGE_SIZE:
            raise ApiError(400, "Id accepts at most %d values" % MAX_PAGE_SIZE)
        filters["Id"] = ids
    page_number = _int_param(body, "PageNumber", 1, 1, None)
    page_size = _int_param(body, "PageSize", DEFAULT_PAGE_SIZE, 1, MAX_PAGE_SIZE)
    if page_number > 10_000_000:
        raise ApiError(400, "PageNumber is too large")
    return filters, page_number, page_size


# --------------------------------------------------------------------------
# HTTP
# --------------------------------------------------------------------------
class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "AssetGroupServer/1.0"

    def log_message(self, fmt, *args):
        if os.environ.get("ACCESS_LOG"):
            sys.stderr.write("%s - %s\n" % (self.address_string(), fmt % args))

    # -- helpers ---------------------------------------------------------
    def _metadata(self, action, version):
        return {"RequestId": self.request_id, "Action": action or "", "Version": version or "",
                "Service": SERVICE_NAME, "Region": REGION}

    def _send(self, status, payload, extra_headers=None):
        data = json.dumps(payload, ensure_ascii=False).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("X-Request-Id", self.request_id)
        for k, v in (extra_headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def _send_error(self, status, message, action, version, kind=None, extra_headers=None):
        op = action if action in ("CreateAssetGroup", "ListAssetGroups") else None
        if kind is None:
            kind = ERR_KIND.get((op, status)) or ERR_KIND.get((None, status))
        if kind is None:  # status outside the spec's table (404/405/400 for unknown action)
            kind = {400: "InvalidParameter", 404: "NotFound", 405: "MethodNotAllowed",
                    413: "RequestTooLarge"}.get(status, "AssetError")
        error = {"Code": kind, "Message": message}
        meta = self._metadata(action, version)
        meta["Error"] = dict(error)
        self._send(status, {"ResponseMetadata": meta, "Error": error}, extra_headers)

    def _read_body(self):
        length = self.headers.get("Content-Length")
        if length is None:
            return b""
        try:
            n = int(length)
        except ValueError:
            self.close_connection = True
            raise ApiError(400, "invalid Content-Length")
        if n < 0 or n > MAX_BODY:
            self.close_connection = True
            raise ApiError(413 if n > MAX_BODY else 400, "request body too large" if n > MAX_BODY
                           else "invalid Content-Length")
        return self.rfile.read(n) if n else b""

    def _authenticate(self):
        header = self.headers.get("Authorization")
        if not header:
            raise ApiError(401, "missing Authorization header")
        scheme, _, token = header.strip().partition(" ")
        token = token.strip()
        if scheme.lower() != "bearer" or not token:
            raise ApiError(401, "Authorization must be 'Bearer <ACCESS_TOKEN>'")
        principal = TOKENS.get(token)
        if principal is None:
            raise ApiError(401, "invalid access token")
        return principal

    # -- dispatch --------------------------------------------------------
    def _handle(self):
        self.request_id = uuid.uuid4().hex
        parts = urlsplit(self.path)
        query = parse_qs(parts.query, keep_blank_values=True)
        action = (query.get("Action") or [None])[0]
        version = (query.get("Version") or [None])[0]
        try:
            raw = self._read_body() if self.command in ("POST", "PUT", "PATCH", "DELETE") else b""
        except ApiError as e:
            return self._send_error(e.status, e.message, action, version)
        if parts.path not in API_PATHS:
            return self._send_error(404, "no such path: %s" % parts.path, action, version)
        if self.command != "POST":
            return self._send_error(405, "only POST is supported", action, version,
                                    extra_headers={"Allow": "POST"})
        try:
            user_id, channel = self._authenticate()
            if action not in ("CreateAssetGroup", "ListAssetGroups"):
                raise ApiError(400, "unknown or missing Action: %r" % action, kind="InvalidAction")
            if version != API_VERSION:
                raise ApiError(400, "Version must be %s" % API_VERSION)
            if raw.strip():
                try:
                    body = json.loads(raw.decode("utf-8"))
                except (UnicodeDecodeError, ValueError):
                    raise ApiError(400, "request body is not valid JSON")
            else:
                body = {} if action == "ListAssetGroups" else None
            if action == "CreateAssetGroup":
                result = self._create(user_id, channel, body)
            else:
                result = self._list(user_id, channel, body)
        except ApiError as e:
            headers = {"Retry-After": "1"} if e.status in (429, 503) else None
            return self._send_error(e.status, e.message, action, version, e.kind, headers)
        except Exception as e:  # noqa: BLE001 - last-resort guard
            sys.stderr.write("internal error: %r\n" % (e,))
            return self._send_error(500, "internal error", action, version)
        self._send(200, {"ResponseMetadata": self._metadata(action, version), "Result": result})

    def _create(self, user_id, channel, body):
        fields = validate_create(body)
        if not LIMITER.allow(user_id):
            raise ApiError(429, "too many CreateAssetGroup requests; retry later")
        try:
            group_id = STORE.create(user_id, channel, fields)
        except sqlite3.OperationalError as e:
            raise ApiError(503, "asset store temporarily unavailable: %s" % e)
        return {"Id": group_id}

    def _list(self, user_id, channel, body):
        filters, page_number, page_size = validate_list(body)
        try:
            total, items = STORE.list(user_id, channel, filters, page_number, page_size)
        except sqlite3.Error as e:
            raise ApiError(500, "asset store error: %s" % e)
        return {"Items": items, "TotalCount": total, "PageNumber": page_number, "PageSize": page_size}

    do_POST = do_GET = do_PUT = do_PATCH = do_DELETE = do_HEAD = do_OPTIONS = _handle


def main():
    port = int(os.environ.get("PORT", "8099"))
    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.daemon_threads = True
    if not TOKENS:
        sys.stderr.write("warning: no tokens configured (set TOKEN, TOKEN_OTHER_USER, ...)\n")
    sys.stderr.write("asset-group server on http://127.0.0.1:%d (list lag %.1fs)\n" % (server.server_address[1], LIST_LAG))
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
