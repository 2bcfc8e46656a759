"""Static files and pages go out compressed; static files are cached for a year under a URL that names their content."""

import gzip
import re
import urllib.request
from pathlib import Path

import brotli
from flask import url_for

from companion.paths import resource_dir

STATIC = Path(resource_dir("static"))
IMMUTABLE = "public, max-age=31536000, immutable"


def fetch(url: str, encoding: str = "identity"):
    request = urllib.request.Request(url, headers={"Accept-Encoding": encoding})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return answer.headers, answer.read()


def static_urls(server) -> dict[str, str]:
    """The static files the lobby page links to: path -> the URL it uses."""
    _, page = fetch(server.url + "/")
    return {url.split("?")[0]: url for url in re.findall(r'"(/static/[^"]+)"', page.decode())}


def test_static_files_are_served_with_brotli_or_gzip_as_the_browser_asks(server):
    url = server.url + static_urls(server)["/static/vendor/htmx.min.js"]
    original = (STATIC / "vendor" / "htmx.min.js").read_bytes()
    headers, body = fetch(url, "br")
    assert headers["Content-Encoding"] == "br"
    assert brotli.decompress(body) == original
    assert len(body) < len(original) / 2
    headers, body = fetch(url, "gzip")
    assert headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(body) == original
    headers, body = fetch(url)
    assert "Content-Encoding" not in headers
    assert body == original


def test_pages_are_served_compressed(server):
    headers, body = fetch(server.url + "/", "gzip, br")
    assert headers["Content-Encoding"] == "br"
    assert b"<!doctype html>" in brotli.decompress(body)
    assert "Accept-Encoding" in headers["Vary"]


def test_a_versioned_static_url_is_cached_for_a_year_and_any_other_is_asked_again(server):
    for path, url in static_urls(server).items():
        assert re.search(r"\?v=[0-9a-f]{16}$", url), url
        assert fetch(server.url + url)[0]["Cache-Control"] == IMMUTABLE
        assert fetch(server.url + path)[0]["Cache-Control"] == "no-cache"
        assert fetch(server.url + path + "?v=0000000000000000")[0]["Cache-Control"] == "no-cache"


def test_the_versioned_url_changes_when_the_file_changes(app, client, tmp_path):
    app.static_folder = str(tmp_path)
    style = tmp_path / "style.css"
    style.write_text("body { color: red; }")
    with app.test_request_context():
        before = url_for("static", filename="style.css")
    style.write_text("body { color: blue; }")
    with app.test_request_context():
        after = url_for("static", filename="style.css")
    assert before != after
    with client.get(after) as new:
        assert new.headers["Cache-Control"] == IMMUTABLE
    with client.get(before) as old:
        assert old.headers["Cache-Control"] == "no-cache"  # the old URL never gets the new bytes kept for a year
        assert old.get_data() == b"body { color: blue; }"
