"""RedisStore: errors without a server, and a round trip with one.

The round trip needs a Redis at `TOF_REDIS_URL` (default `redis://127.0.0.1:6379`); CI starts
one (`.ci/redis.sh`) before it runs this suite.
"""

import os
import socket
import urllib.parse
import uuid

import pytest

from tool_output_format import Formatter, RedisStore, StoreError, ToolError

URL = os.environ.get("TOF_REDIS_URL", "redis://127.0.0.1:6379")


def test_a_bad_url_is_a_value_error():
    with pytest.raises(ValueError) as info:
        RedisStore("http://localhost", 60)
    assert str(info.value).startswith('"http://localhost" is not a Redis URL (')


def test_a_redis_that_is_down():
    store = RedisStore("redis://127.0.0.1:1", 60, timeout_secs=0.5)
    with pytest.raises(StoreError) as info:
        store.get("r_aaaaaaaaaaaaaaaaaaaaaaaaaa")
    assert "127.0.0.1:1" in str(info.value)
    err = store.fetch("r_aaaaaaaaaaaaaaaaaaaaaaaaaa")
    assert isinstance(err, ToolError)
    assert (err.kind, err.retryable) == ("unavailable", True)
    # A cut result that cannot be stored: no Next line, and the report says why.
    out = Formatter(max_rows=1, store=store).format_with_report("t", [{"id": 1}, {"id": 2}])
    assert "Next:" not in out.text
    assert out.report["reference"] is None
    assert "127.0.0.1:1" in out.report["store_error"]


def redis_answers():
    address = urllib.parse.urlparse(URL)
    try:
        with socket.create_connection((address.hostname, address.port or 6379), timeout=0.5):
            return True
    except OSError:
        return False


if redis_answers():

    def test_round_trip_through_redis():
        store = RedisStore(URL, 60, prefix=f"tof-py-test:{uuid.uuid4().hex}:")
        assert store.ttl_secs == 60
        rows = [{"id": 1, "tags": ["a"]}, {"id": 2, "tags": []}]
        fmt = Formatter(max_rows=1, store=store)
        out = fmt.format_with_report("t", rows)
        reference = out.report["reference"]
        assert out.text.endswith(f'\n\nNext: call get_stored_result(ref="{reference}", cursor="1")')
        assert store.get(reference) == rows
        assert store.fetch(reference) == rows
        assert store.get(store.put({"a": None})) == {"a": None}
        with pytest.raises(StoreError) as info:
            store.get("r_aaaaaaaaaaaaaaaaaaaaaaaaaa")
        assert "unknown" in str(info.value)
