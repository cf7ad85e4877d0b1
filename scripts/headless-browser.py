#!/usr/bin/env python3
"""A browser for CI's OAuth sign-ins: opens the authorization page of the shared PDS (../shared/pds),
posts its login form with ATPROTO_PDS_HANDLE / ATPROTO_PDS_PASSWORD as a person pressing "Allow"
would, and follows the redirect to the app's loopback listener. Usage: headless-browser.py <url>"""
import html
import os
import re
import sys
import urllib.error
import urllib.parse
import urllib.request


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def hidden(name, page):
    match = re.search(r'name="%s" value="([^"]*)"' % re.escape(name), page)
    if not match:
        sys.exit("headless-browser: the login page has no %s field" % name)
    return html.unescape(match.group(1))


def main():
    url = sys.argv[1]
    page = urllib.request.urlopen(urllib.request.Request(url, headers={"Accept": "text/html"}), timeout=20)
    text = page.read(64 * 1024).decode()
    form = urllib.parse.urlencode({
        "request_uri": hidden("request_uri", text), "client_id": hidden("client_id", text),
        "identifier": os.environ.get("ATPROTO_PDS_HANDLE", "alice.test"),
        "password": os.environ.get("ATPROTO_PDS_PASSWORD", "hunter2"), "action": "allow",
    }).encode()
    action = urllib.parse.urljoin(url, "/oauth/authorize")
    opener = urllib.request.build_opener(NoRedirect)
    try:
        opener.open(urllib.request.Request(action, data=form), timeout=20)
        sys.exit("headless-browser: the login form answered without a redirect")
    except urllib.error.HTTPError as answer:
        if answer.code != 302:
            sys.exit("headless-browser: the login form answered %d" % answer.code)
        callback = answer.headers["Location"]
    # The app's listener answers the redirect; its page is all a browser would show.
    print(urllib.request.urlopen(callback, timeout=20).read().decode())


main()
