// Tells the dashboard the analyst's time zone, so times it renders (when
// the hourly limit renews) read in local time beside UTC. The zone name
// travels in a cookie of its own, first-party and readable by nothing but
// this dashboard; it is set again only when it changes.
(function () {
  "use strict";
  var zone;
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch (e) {
    return;
  }
  if (!zone || !/^[A-Za-z0-9_\/+\-]{1,64}$/.test(zone)) {
    return;
  }
  var name = "creditdash_tz=";
  var current = document.cookie.split("; ").filter(function (c) { return c.indexOf(name) === 0; })[0];
  if (current === name + encodeURIComponent(zone)) {
    return;
  }
  var secure = location.protocol === "https:" ? "; Secure" : "";
  document.cookie = name + encodeURIComponent(zone) + "; Path=/; Max-Age=31536000; SameSite=Lax" + secure;
})();
