"""Installable site (web/pwa.py, static/sw.js, manifest.webmanifest): the page links a manifest a phone can
install from (name, standalone display, start URL, 192 and 512 px PNG icons that are what they say), a
service worker takes control, and with the network gone the site's pages still open from its copy."""

from __future__ import annotations

import json
import struct
import urllib.request

from playwright.sync_api import expect
from tests.web.browser.conftest import NewPage
from tests.web.servers import LiveServer


def _get(url: str) -> tuple[str, bytes]:
    with urllib.request.urlopen(url, timeout=30) as resp:
        return resp.headers.get("content-type", ""), resp.read()


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    width, height = struct.unpack(">II", data[16:24])  # the IHDR chunk comes first
    return width, height


def test_the_manifest_names_the_app_and_its_icons_are_what_they_say(web: LiveServer, new_page: NewPage) -> None:
    page = new_page()
    page.goto(f"{web.url}/")
    href = page.locator("link[rel=manifest]").get_attribute("href")
    assert href is not None
    kind, body = _get(web.url + href)
    assert kind.startswith("application/manifest+json")
    manifest = json.loads(body)
    assert manifest["short_name"] == "Cubilete" and manifest["display"] == "standalone"
    assert manifest["start_url"] == "/" and manifest["theme_color"].startswith("#")
    sizes = set()
    for icon in manifest["icons"]:
        kind, data = _get(web.url + icon["src"])
        width, height = _png_size(data)
        assert kind == icon["type"] == "image/png" and icon["sizes"] == f"{width}x{height}", icon
        sizes.add(width)
    assert {192, 512} <= sizes  # what browsers ask of an installable site
    assert any("maskable" in icon["purpose"] for icon in manifest["icons"])  # round home-screen icons


def test_a_service_worker_keeps_the_shell_and_pages_open_offline(web: LiveServer, new_page: NewPage) -> None:
    # offline, the pages' reads of the API fail: that is expected, the shell is what must come
    page = new_page(expected=[r"Failed to fetch", r"ERR_INTERNET_DISCONNECTED", r"NetworkError"])
    page.goto(f"{web.url}/")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    scope = page.evaluate("navigator.serviceWorker.ready.then((r) => r.scope)")
    assert scope == f"{web.url}/"
    cached = page.evaluate("caches.keys().then((names) => Promise.all(names.map((n) => caches.open(n)"
                           ".then((c) => c.keys())))).then((lists) => lists.flat().map((r) => r.url))")
    path_of = {url.removeprefix(web.url) for url in cached}
    shell = ["/static/app.js", "/static/table.js", "/static/style.css", "/static/i18n.js", "/static/strings.js"]
    assert {"/", *shell} <= path_of
    page.context.set_offline(True)
    try:
        for address in ("/", "/games", "/t/any-table"):
            page.goto(f"{web.url}{address}")
            expect(page.get_by_test_id("home-link")).to_be_visible()  # the header came from the kept scripts
        page.goto(f"{web.url}/games")
        expect(page.get_by_text("No connection to the server.")).to_be_visible()  # says why, never a blank
    finally:
        page.context.set_offline(False)
