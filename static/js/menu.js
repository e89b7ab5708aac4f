// The header's account menu (a <details>, which works with no script)
// closes the way a menu is expected to: Escape closes it, the focus back
// on its summary when it was in the menu (or nowhere), and a press
// outside it (mouse, pen or finger) closes it. A press inside it is left
// alone, so its links and Sign out work as before.
//
// The listeners are on the document and find the menu when an event
// comes, so the script may run before the header is parsed (it is loaded
// async) and costs nothing until the menu is open.
(function () {
  "use strict";
  function openMenu() {
    return document.querySelector("header.site details.account-menu[open]");
  }

  document.addEventListener("keydown", function (e) {
    if (e.key !== "Escape" || e.isComposing || e.defaultPrevented) {
      return;
    }
    var menu = openMenu();
    if (!menu) {
      return;
    }
    var focus = document.activeElement;
    menu.open = false;
    if (!focus || focus === document.body || menu.contains(focus)) {
      menu.querySelector("summary").focus();
    }
    e.preventDefault();
  });

  // pointerdown, not click: a tap on text or a blank part of the page
  // gives no click to the document in some mobile browsers, and a menu
  // over the page should go as the user starts to scroll past it.
  document.addEventListener("pointerdown", function (e) {
    var menu = openMenu();
    if (menu && !menu.contains(e.target)) {
      menu.open = false;
    }
  }, true);
})();
