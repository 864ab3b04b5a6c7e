// Runs as soon as index.html's static shell is parsed, before the app's scripts (a classic script right after the
// shell's markup: the CSP allows no inline script). On the sign-in and registration pages it
// - puts the stored interface language (localStorage `appLocale`, src/lib/locale-store.ts) on <html lang>, so the
//   static shell speaks it;
// - shows index.html's static shell (`data-boot` on <html>, see
//   src/app/boot-loading.css): the page is painted from HTML and CSS before any JavaScript of the app arrives.
//   Meanwhile the app renders into #root, kept transparent (opacity 0: laid out, focusable, and its layout
//   shifts are not counted while it cannot be seen); when the page of the route, or an error screen, is in #root,
//   the shell goes and #root shows in the same frame, whole.
(function () {
  var html = document.documentElement;
  var pages = { '/auth/login': 'login', '/auth/register': 'register' };
  var page = pages[location.pathname.replace(/\/+$/, '')];
  // Other pages show nothing before the app: the language can wait for it (a first read of localStorage is a
  // synchronous round trip to the browser process, not worth making before the first paint for nothing).
  if (!page || !window.MutationObserver) return;
  try {
    if (localStorage.getItem('appLocale') === 'en') html.lang = 'en';
  } catch {
    // Storage refused (privacy settings): the default language stays, as the app itself will find.
  }
  html.setAttribute('data-boot', page);
  if (page === 'login' && /[?&]next=/.test(location.search)) html.setAttribute('data-boot-next', '');

  var observer = new MutationObserver(function () {
    if (!document.querySelector('#root [data-route], #root [data-screen]')) return;
    observer.disconnect();
    var shell = document.getElementById('boot-shell');
    if (shell) shell.parentNode.removeChild(shell);
    html.removeAttribute('data-boot');
    html.removeAttribute('data-boot-next');
  });
  observer.observe(html, { childList: true, subtree: true });
})();
