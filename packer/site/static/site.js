// The site's own script (packer/site/static/site.js): the search box and the contents list. Nothing else runs.
(function () {
  "use strict";
  // The contents list is a <details>: open on a wide screen, folded on a phone until tapped.
  var contents = document.querySelector(".site-contents details");
  if (contents && window.matchMedia("(min-width: 62em)").matches) {
    contents.open = true;
  }

  // The search box: Pagefind's UI, with its index in pagefind/ (made by make site). Pagefind finds the index beside
  // its own script and takes the site's base from there, so results lead into the site wherever it is served (at a
  // host's root or under a path). Opened from disk (file://) the browser refuses to fetch the index, so the note
  // already in the page (how to serve the site) stays instead.
  var box = document.getElementById("site-search");
  if (!box || location.protocol === "file:" || typeof PagefindUI === "undefined") {
    return;
  }
  box.textContent = "";
  new PagefindUI({
    element: "#site-search",
    resetStyles: false,
    showImages: false,
    showSubResults: true,
    translations: { placeholder: "Search the lessons, exercises and guides" },
  });
  // The header's "Search" label names Pagefind's input (which has only a title of its own).
  var input = box.querySelector("input");
  if (input) {
    input.id = "site-search-input";
    var label = document.querySelector("label.site-search-label");
    if (label) {
      label.htmlFor = input.id;
      label.hidden = false;
    }
  }
})();
