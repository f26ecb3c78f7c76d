// A module that fails to load or start (an old browser, no WebAssembly, a broken
// download) leaves the loading screen: replace it with what happened. A file, not an
// inline script, so the content-security policy allows no inline script (docs/app.md).
(function () {
  function failed(why) {
    var text = document.getElementById('boot-text');
    if (!text) return; // the app is up: its own errors are its own
    text.classList.add('boot-failed');
    text.textContent =
      'Playbench could not start: ' + why +
      '. Reload the page; if it keeps failing, use a recent browser with WebAssembly enabled.';
  }
  window.addEventListener('unhandledrejection', function (e) {
    failed(String((e.reason && e.reason.message) || e.reason || 'unknown error'));
  });
  window.addEventListener('error', function (e) {
    var t = e.target;
    if (t && t !== window && (t.src || t.href)) failed('could not download ' + (t.src || t.href));
    else failed(e.message || 'unknown error');
  }, true);
  if (typeof WebAssembly !== 'object') failed('this browser has no WebAssembly');
})();
