// Caches the app shell and static files; never a seat's view (those are private and live).
var CACHE = "companion-shell-v1";
var SHELL = ["/static/app.css", "/static/app.js", "/static/vendor/htmx.min.js", "/static/icons/icon.svg",
             "/static/icons/icon-192.png", "/manifest.webmanifest"];

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.addAll(SHELL); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (k) { return k !== CACHE; }).map(function (k) { return caches.delete(k); }));
  }));
});

self.addEventListener("fetch", function (event) {
  var url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== location.origin || !url.pathname.startsWith("/static/")) {
    return; // pages, views and the API always go to the server
  }
  event.respondWith(caches.match(event.request).then(function (hit) { return hit || fetch(event.request); }));
});
