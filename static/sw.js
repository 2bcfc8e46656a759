// Keeps the static files whose URL names their content (?v=<hash>): such a URL never changes meaning, so the
// cache may answer at once and is never stale. Everything else goes to the server, and a seat's view
// (private and live) is never kept.
var CACHE = "companion-static-v2";

self.addEventListener("install", function () { self.skipWaiting(); });

self.addEventListener("activate", function (event) {
  // Earlier versions kept unversioned copies of app.js and app.css that could go stale.
  event.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (k) { return k !== CACHE; }).map(function (k) { return caches.delete(k); }));
  }).then(function () { return self.clients.claim(); }));
});

function keep(cache, request, response) {
  var path = new URL(request.url).pathname;
  return cache.keys().then(function (kept) {
    // One version per file: the one this replaces is never asked for again.
    return Promise.all(kept.filter(function (old) { return new URL(old.url).pathname === path; })
      .map(function (old) { return cache.delete(old); }));
  }).then(function () { return cache.put(request, response); });
}

self.addEventListener("fetch", function (event) {
  var url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== location.origin || !url.pathname.startsWith("/static/") ||
      !url.searchParams.has("v")) {
    return;
  }
  event.respondWith(caches.open(CACHE).then(function (cache) {
    return cache.match(event.request).then(function (hit) {
      return hit || fetch(event.request).then(function (response) {
        if (/immutable/.test(response.headers.get("Cache-Control") || "")) {
          event.waitUntil(keep(cache, event.request, response.clone()));
        }
        return response;
      });
    });
  }));
});
