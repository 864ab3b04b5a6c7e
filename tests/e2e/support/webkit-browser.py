#!/usr/bin/python3
# A minimal WebKitGTK browser for WebKitWebDriver that keeps its profile on disk (TESTING.md, "WebKit across
# a browser restart"): MiniBrowser in --automation mode uses an ephemeral data manager, so IndexedDB, Cache
# Storage and the service worker would be gone after a restart. Here every web view of the session shares one
# WebContext whose WebsiteDataManager stores under --profile=DIR, so a second session on the same DIR sees
# what the first one stored.
#
# Started by WebKitWebDriver as `webkit-browser.py --profile=DIR --automation` (the driver passes the inspector
# address in WEBKIT_INSPECTOR_SERVER); runs until the session closes its last view or SIGTERM arrives.
import os
import signal
import sys

import gi

gi.require_version('Gtk', '3.0')
gi.require_version('WebKit2', '4.1')
from gi.repository import GLib, Gtk, WebKit2  # noqa: E402


def main() -> int:
    profile = None
    for arg in sys.argv[1:]:
        if arg.startswith('--profile='):
            profile = arg[len('--profile='):]
    if not profile:
        print('webkit-browser.py: --profile=DIR is required', file=sys.stderr)
        return 2
    os.makedirs(profile, exist_ok=True)

    manager = WebKit2.WebsiteDataManager(
        base_data_directory=os.path.join(profile, 'data'),
        base_cache_directory=os.path.join(profile, 'cache'),
    )
    context = WebKit2.WebContext(website_data_manager=manager)
    context.set_automation_allowed(True)
    windows = []

    def on_view_close(view, window):
        window.destroy()

    def on_window_destroy(window):
        if window in windows:
            windows.remove(window)
        if not windows:
            Gtk.main_quit()

    def create_web_view(_session):
        view = WebKit2.WebView(web_context=context, is_controlled_by_automation=True)
        settings = view.get_settings()
        settings.set_enable_developer_extras(True)
        window = Gtk.Window()
        window.set_default_size(1280, 800)
        window.add(view)
        view.connect('close', on_view_close, window)
        window.connect('destroy', on_window_destroy)
        windows.append(window)
        window.show_all()
        return view

    def on_automation_started(_context, session):
        info = WebKit2.ApplicationInfo()
        info.set_name('webkit-browser.py')
        info.set_version(WebKit2.get_major_version(), WebKit2.get_minor_version(), WebKit2.get_micro_version())
        session.set_application_info(info)
        session.connect('create-web-view', create_web_view)

    context.connect('automation-started', on_automation_started)

    def on_term():
        Gtk.main_quit()
        return GLib.SOURCE_REMOVE

    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGTERM, on_term)
    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGINT, on_term)
    Gtk.main()
    return 0


if __name__ == '__main__':
    sys.exit(main())
