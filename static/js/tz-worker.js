// Reads the browser's time zone for js/tz.js off the page's main thread:
// the first Intl call of a page loads the ICU time-zone data, which on a
// phone blocked input for up to half a second (Lighthouse's long tasks).
// A worker pays that on its own thread and posts back the zone name.
(function () {
  "use strict";
  var zone = "";
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  } catch (e) {
    zone = "";
  }
  postMessage(zone);
})();
