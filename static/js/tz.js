// Tells the dashboard the analyst's time zone, so times it renders (when
// the hourly limit renews) read in local time beside UTC. The zone name
// travels in a cookie of its own, first-party and readable by nothing but
// this dashboard; it is set again only when it changes.
//
// The zone is read by js/tz-worker.js (this script's data-worker), not
// here: the first Intl call loads ICU's time-zone data, a long task on a
// phone's main thread. It is read once per browser session (a session
// cookie marks it), so later pages start no worker at all.
//
// Where the browser has the Cookie Store API the cookies are read and
// written through it: document.cookie and sessionStorage are synchronous
// calls to the browser process, which on a busy phone blocked the page for
// hundreds of milliseconds (Lighthouse counted tz.js tasks of 0.3-1 s).
(function () {
  "use strict";
  var script = document.currentScript;
  var worker = script ? script.getAttribute("data-worker") : null;
  // The zone's cookie as document.cookie lists it, and its name.
  var zoneCookie = "creditdash_tz=";
  var zoneName = zoneCookie.slice(0, -1);
  var checkedName = "creditdash_tz_checked";
  if (!worker || !window.Worker) {
    return;
  }
  var store = window.cookieStore && window.isSecureContext ? window.cookieStore : null;

  function valid(zone) {
    return typeof zone === "string" && /^[A-Za-z0-9_\/+\-]{1,64}$/.test(zone);
  }

  // read calls back with the zone cookie's value ("" if none) and whether
  // this session has read the zone already.
  function read(then) {
    if (store) {
      Promise.all([store.get(zoneName), store.get(checkedName)]).then(function (c) {
        then(c[0] ? decodeURIComponent(c[0].value) : "", !!c[1]);
      }, function () { then("", false); });
      return;
    }
    var cookies = document.cookie.split("; ");
    var zone = "";
    var checked = false;
    cookies.forEach(function (c) {
      if (c.indexOf(zoneCookie) === 0) {
        zone = decodeURIComponent(c.slice(zoneCookie.length));
      } else if (c === checkedName + "=1") {
        checked = true;
      }
    });
    then(zone, checked);
  }

  // write sets the session mark and, when it changed, the zone (a year).
  function write(zone, current) {
    var year = 365 * 24 * 3600;
    if (store) {
      store.set({ name: checkedName, value: "1", path: "/", sameSite: "lax" }).catch(function () {});
      if (zone !== current) {
        store.set({ name: zoneName, value: encodeURIComponent(zone), path: "/", sameSite: "lax",
          expires: Date.now() + year * 1000 }).catch(function () {});
      }
      return;
    }
    var secure = location.protocol === "https:" ? "; Secure" : "";
    document.cookie = checkedName + "=1; Path=/; SameSite=Lax" + secure;
    if (zone !== current) {
      document.cookie = zoneCookie + encodeURIComponent(zone) + "; Path=/; Max-Age=" + year + "; SameSite=Lax" + secure;
    }
  }

  read(function (current, checked) {
    if (current && checked) {
      return;
    }
    var w;
    try {
      w = new Worker(worker);
    } catch (e) {
      return;
    }
    w.addEventListener("message", function (e) {
      w.terminate();
      if (valid(e.data)) {
        write(e.data, current);
      }
    });
    w.addEventListener("error", function () { w.terminate(); });
  });
})();
