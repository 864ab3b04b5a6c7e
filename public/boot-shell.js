// Runs as soon as index.html's static shell is parsed, before the app's scripts (a classic script right after the
// shell's markup: the CSP allows no inline script). On the sign-in and registration pages, and on the signed-in
// screens when the device holds a session (an access token in localStorage, src/lib/token-store.ts: without one
// the app goes to sign-in), it
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
  var path = location.pathname.replace(/\/+$/, '');
  var page = pages[path];
  // The other sign-in pages show nothing before the app: the language can wait for it (a first read of
  // localStorage is a synchronous round trip to the browser process, not worth making before the first paint for
  // nothing).
  if ((!page && path.indexOf('/auth/') === 0) || !window.MutationObserver) return;
  try {
    // A signed-in screen: the frame ('app'), for a device with a session only.
    if (!page && localStorage.getItem('accessToken')) {
      page = 'app';
      if (window.fetch) askForSession();
    }
    if (page && localStorage.getItem('appLocale') === 'en') html.lang = 'en';
  } catch {
    // Storage refused (privacy settings): the default language stays, as the app itself will find; no session.
  }
  if (!page) return;
  html.setAttribute('data-boot', page);
  if (page === 'login' && /[?&]next=/.test(location.search)) html.setAttribute('data-boot-next', '');

  // A signed-in screen waits on the session: asked for now, with the stored token and language, while the app's
  // JavaScript downloads. The app's HTTP client takes these answers for its own same requests
  // (src/lib/boot-requests.ts), and does with them what it does with any answer.
  function askForSession() {
    var token = localStorage.getItem('accessToken');
    var language = localStorage.getItem('appLocale') === 'en' ? 'en' : 'ru';
    var requests = {};
    ['/user', '/enums', '/units'].forEach(function (path) {
      var url = '/main-service/api/v1' + path;
      var headers = { Accept: 'application/json', Language: language, Authorization: 'Bearer ' + token };
      var request = { authorization: headers.Authorization, language: language, response: fetch(url, { headers: headers }) };
      // No answer: forgotten, so the app asks again itself rather than taking the failure (it reports its own).
      request.response.catch(function () {
        if (requests[url] === request) delete requests[url];
      });
      requests[url] = request;
    });
    window.__bootRequests = requests;
  }

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
