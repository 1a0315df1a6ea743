// The site's own script (packer/site/static/site.js): the contents and the page's outline open on a wide screen, a tab
// stop on each box that scrolls, a copy button on each code cell, and the search box. Nothing else runs; without it
// every page still reads, its boxes still scroll, and its folded lists open on a tap.
(function () {
  "use strict";
  var wide = window.matchMedia("(min-width: 62em)");

  // The contents of the course are a <details>: open on a wide screen (beside the text), folded on a phone until
  // tapped. The page's outline ("On this page") stays folded at every width: open, its twenty links stood between
  // the title and the lesson's first paragraph, twenty tab stops past "Skip to the content".
  if (wide.matches) {
    document.querySelectorAll(".site-contents details").forEach(function (list) {
      list.open = true;
    });
  }

  // Printed, every folded part is printed open (print.css does it where the browser knows ::details-content), and
  // folded again afterwards as the reader left it.
  var openedToPrint = [];
  window.addEventListener("beforeprint", function () {
    openedToPrint = Array.prototype.filter.call(document.querySelectorAll("main details:not([open])"), function (d) {
      d.open = true;
      return true;
    });
  });
  window.addEventListener("afterprint", function () {
    openedToPrint.forEach(function (d) {
      d.open = false;
    });
    openedToPrint = [];
  });

  // A printed output with a line of over 160 characters (a list, a JSON dump, a summary on one line) wraps like
  // prose; an output of aligned columns (a run of three spaces inside a line) keeps its lines and scrolls.
  document.querySelectorAll(".jp-OutputArea-output pre").forEach(function (pre) {
    var lines = pre.textContent.split("\n");
    var long = lines.some(function (line) { return line.length > 160; });
    var columns = lines.some(function (line) { return /\S {3,}\S/.test(line); });
    if (long && !columns) {
      pre.classList.add("site-wrapped");
    }
  });
  // A name or path of code in the prose may break after a / _ . (a <wbr>), not in the middle of a word.
  document.querySelectorAll(".jp-RenderedMarkdown code").forEach(function (code) {
    if (code.children.length || code.textContent.length < 16) {
      return;
    }
    var parts = code.textContent.split(/(?<=[\/_.])/);
    code.textContent = "";
    parts.forEach(function (part, i) {
      if (i) {
        code.appendChild(document.createElement("wbr"));
      }
      code.appendChild(document.createTextNode(part));
    });
  });

  // A box that scrolls sideways (or down) takes the keyboard's focus, so its arrow keys scroll it; a box that does
  // not scroll is no tab stop. Which boxes scroll depends on the screen's width, so this runs again when the width
  // changes and when a folded part of the page opens.
  function scrolls(box) {
    if (box.checkVisibility && !box.checkVisibility()) {
      return false;  // in a folded <details>
    }
    var style = getComputedStyle(box);
    var sideways = /auto|scroll/.test(style.overflowX) && box.scrollWidth > box.clientWidth + 1;
    var down = /auto|scroll/.test(style.overflowY) && box.scrollHeight > box.clientHeight + 1;
    return sideways || down;
  }
  function markScrollingBoxes() {
    document.querySelectorAll("main pre, main .site-table, main .site-math").forEach(function (box) {
      if (scrolls(box)) {
        box.tabIndex = 0;
      } else {
        box.removeAttribute("tabindex");
      }
    });
  }
  var pending = false;
  function markSoon() {
    if (!pending) {
      pending = true;
      window.requestAnimationFrame(function () {
        pending = false;
        markScrollingBoxes();
      });
    }
  }
  markScrollingBoxes();
  window.addEventListener("resize", markSoon);
  document.addEventListener("toggle", markSoon, true);
  // A link that has the focus inside a box that scrolls sideways (a table of a guide) is scrolled into view whole:
  // the browser scrolls the box only as far as to show part of it.
  document.addEventListener("focusin", function (event) {
    if (event.target.closest && event.target.closest(".site-table, .site-math") && event.target.scrollIntoView) {
      event.target.scrollIntoView({ block: "nearest", inline: "nearest" });
    }
  });

  // A copy button on each code cell (and on the commands that get the workbook), as sphinx-copybutton gives Jupyter
  // Book's readers: a real <button>, so the keyboard reaches it, and what it did is said in a status region, which a
  // screen reader announces ("Copied").
  var status = document.createElement("p");
  status.className = "site-visually-hidden site-copy-status";
  status.setAttribute("role", "status");
  document.body.appendChild(status);

  function announce(message) {
    status.textContent = "";  // a change, so that the same message is announced again
    window.requestAnimationFrame(function () {
      status.textContent = message;
    });
  }
  function copiedByCommand(text, button) {  // where the Clipboard API is missing (a page served over plain http)
    var area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.className = "site-visually-hidden";
    document.body.appendChild(area);
    area.select();
    var copied = false;
    try {
      copied = document.execCommand("copy");
    } catch (error) {
      copied = false;
    }
    area.remove();
    button.focus();
    return copied;
  }
  function copy(text, button) {
    function done(copied) {
      announce(copied ? "Copied" : "Not copied: select the code and copy it yourself");
      if (copied) {
        button.firstChild.textContent = "Copied";
        window.setTimeout(function () {
          button.firstChild.textContent = "Copy";
        }, 2000);
      }
    }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(
        function () { done(true); },
        function () { done(copiedByCommand(text, button)); }
      );
    } else {
      done(copiedByCommand(text, button));
    }
  }
  function copyButton(code) {
    var button = document.createElement("button");
    button.type = "button";
    button.className = "site-copy";
    button.appendChild(document.createTextNode("Copy"));
    var what = document.createElement("span");
    what.className = "site-visually-hidden";
    what.textContent = " code";
    button.appendChild(what);
    button.addEventListener("click", function () {
      copy(code.textContent.replace(/\n$/, ""), button);
    });
    return button;
  }
  document.querySelectorAll(".jp-CodeCell .jp-InputArea").forEach(function (area) {
    var code = area.querySelector(".jp-InputArea-editor pre");
    var prompt = area.querySelector(".jp-InputPrompt");
    if (code && prompt) {
      prompt.appendChild(copyButton(code));
    }
  });
  document.querySelectorAll("pre.site-commands").forEach(function (code) {
    code.parentNode.insertBefore(copyButton(code), code);
  });

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
