"""The QR codes a table's screens show: the display's join code, and the one-time links the host hands out."""

from __future__ import annotations

import io

import qrcode
import qrcode.image.svg
from flask import Blueprint, Response, abort

from companion.web.common import cookie_is_host, external_url, table_code

bp = Blueprint("qr_codes", __name__)


@bp.get("/t/<code>/host-link/<invite>/qr.svg")
def host_link_qr(code, invite):
    return _one_time_qr(code, "pages.open_host_link", invite)


@bp.get("/t/<code>/qr.svg")
def join_qr(code):
    code = table_code(code)
    return _qr_svg(external_url("pages.join", code=code))


@bp.get("/t/<code>/invite/<invite>/qr.svg")
def invite_qr(code, invite):
    return _one_time_qr(code, "pages.invited", invite)


def _one_time_qr(code: str, endpoint: str, invite: str):
    """The QR code of a one-time link the host hands out (a freed seat, a host phone): for the host's eyes only."""
    code = table_code(code)
    if not cookie_is_host(code):
        abort(403)
    return _qr_svg(external_url(endpoint, code=code, invite=invite))


def _qr_svg(url: str) -> Response:
    image = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage, box_size=12, border=2)
    buffer = io.BytesIO()
    image.save(buffer)
    return Response(buffer.getvalue(), mimetype="image/svg+xml")
