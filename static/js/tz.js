// Tells the dashboard the analyst's time zone, so times it renders (when
// the hourly limit renews) read in local time beside UTC. The zone name
// travels in a cookie of its own, first-party and readable by nothing but
// this dashboard; it is set again only when it changes.
//
// The zone is read by js/tz-worker.js (this script's data-worker), not
// here: the first Intl call loads ICU's time-zone data, a long task on a
// phone's main thread. It is read once per tab session (sessionStorage),
// so later pages start no worker at all.
(function () {
  "use strict";
  var script = document.currentScript;
  var worker = script ? script.getAttribute("data-worker") : null;
  var checked = "creditdash_tz_checked";
  var name = "creditdash_tz=";

  function seen() {
    try {
      return window.sessionStorage.getItem(checked) === "1";
    } catch (e) {
      return false;
    }
  }

  function store(zone) {
    try {
      window.sessionStorage.setItem(checked, "1");
    } catch (e) {
      // Without storage the zone is read again on the next page: harmless.
    }
    if (typeof zone !== "string" || !/^[A-Za-z0-9_\/+\-]{1,64}$/.test(zone)) {
      return;
    }
    var current = document.cookie.split("; ").filter(function (c) { return c.indexOf(name) === 0; })[0];
    if (current === name + encodeURIComponent(zone)) {
      return;
    }
    var secure = location.protocol === "https:" ? "; Secure" : "";
    document.cookie = name + encodeURIComponent(zone) + "; Path=/; Max-Age=31536000; SameSite=Lax" + secure;
  }

  var hasCookie = document.cookie.split("; ").some(function (c) { return c.indexOf(name) === 0; });
  if ((hasCookie && seen()) || !worker || !window.Worker) {
    return;
  }
  var w;
  try {
    w = new Worker(worker);
  } catch (e) {
    return;
  }
  w.addEventListener("message", function (e) {
    store(e.data);
    w.terminate();
  });
  w.addEventListener("error", function () { w.terminate(); });
})();
