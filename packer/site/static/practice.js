// The practice points of a lesson's page (packer/site/practice.py writes their forms and data): a choose point
// shows the kernel's own feedback for the option picked; a predict point reads the reader's Python literal and
// judges it as packer.checking.practice's check_prediction does. Nothing is sent anywhere and nothing is kept.
(function () {
  "use strict";

  // --- reading a Python literal: numbers, strings, True/False/None, lists and tuples ---------------------------
  // A value is [kind, content]: ["int", 3], ["str", "a"], ["bool", true], ["None"], ["list", [...]],
  // ["tuple", [...]], ["float", 1.5]: the encoding practice.py writes the expected value in.
  function LiteralError(message) {
    this.message = message;
  }
  var ESCAPES = { n: "\n", t: "\t", r: "\r", "\\": "\\", "'": "'", '"': '"', a: "\x07", b: "\b", f: "\f", v: "\v", "\n": "" };

  function parse(text) {
    var at = 0;
    function space() {
      while (at < text.length && /\s/.test(text[at])) {
        at += 1;
      }
    }
    function fail(what) {
      throw new LiteralError(what + " at character " + (at + 1));
    }
    function string() {
      var quote = text[at];
      var triple = text.substr(at, 3) === quote + quote + quote;
      at += triple ? 3 : 1;
      var out = "";
      for (;;) {
        if (at >= text.length) {
          fail("a string not closed");
        }
        var c = text[at];
        if (triple ? text.substr(at, 3) === quote + quote + quote : c === quote) {
          at += triple ? 3 : 1;
          return out;
        }
        if (c === "\n" && !triple) {
          fail("a line break inside a string");
        }
        if (c !== "\\") {
          out += c;
          at += 1;
          continue;
        }
        var e = text[at + 1];
        var hex = { x: 2, u: 4, U: 8 }[e];
        if (hex) {
          var digits = text.substr(at + 2, hex);
          if (!new RegExp("^[0-9a-fA-F]{" + hex + "}$").test(digits)) {
            fail("a \\" + e + " escape without its " + hex + " hex digits");
          }
          out += String.fromCodePoint(parseInt(digits, 16));
          at += 2 + hex;
        } else if (/[0-7]/.test(e)) {
          var octal = /^[0-7]{1,3}/.exec(text.substr(at + 1, 3))[0];
          out += String.fromCodePoint(parseInt(octal, 8));
          at += 1 + octal.length;
        } else if (e !== undefined && Object.prototype.hasOwnProperty.call(ESCAPES, e)) {
          out += ESCAPES[e];
          at += 2;
        } else {
          out += "\\";  // Python keeps an unknown escape as it is
          at += 1;
        }
      }
    }
    function number() {
      var found = /^-?\s*(?:\d[\d_]*)?(?:\.[\d_]*)?(?:[eE][+-]?\d+)?/.exec(text.slice(at))[0];
      var bare = found.replace(/\s|_/g, "");
      if (!/\d/.test(bare)) {
        fail("not a literal");
      }
      at += found.length;
      if (/[.eE]/.test(bare)) {
        return ["float", parseFloat(bare)];
      }
      return ["int", parseInt(bare, 10)];
    }
    function sequence(close) {
      var items = [];
      var comma = false;
      for (;;) {
        space();
        if (text[at] === close) {
          at += 1;
          return { items: items, comma: comma };
        }
        items.push(value());
        space();
        if (text[at] === ",") {
          at += 1;
          comma = true;
        } else if (text[at] !== close) {
          fail("a comma or " + close + " missing");
        }
      }
    }
    function value() {
      space();
      var c = text[at];
      if (c === "(") {
        at += 1;
        var inner = sequence(")");
        return inner.items.length === 1 && !inner.comma ? inner.items[0] : ["tuple", inner.items];
      }
      if (c === "[") {
        at += 1;
        return ["list", sequence("]").items];
      }
      if (c === "'" || c === '"') {
        var joined = string();
        space();
        while (text[at] === "'" || text[at] === '"') {  // "a" "b" is "ab", as in Python
          joined += string();
          space();
        }
        return ["str", joined];
      }
      var word = /^[A-Za-z_]\w*/.exec(text.slice(at));
      if (word) {
        var named = { True: ["bool", true], False: ["bool", false], None: ["None"] }[word[0]];
        if (!named) {
          fail("the name " + word[0] + " (the page reads only literals: numbers, strings, lists, tuples)");
        }
        at += word[0].length;
        return named;
      }
      return number();
    }
    var source = text.replace(/^\s*prediction\s*=(?!=)/, "");  // the cell's own form, pasted
    text = source;
    var first = value();
    space();
    var items = [first];
    var comma = false;
    while (text[at] === ",") {  // 4, 3 is a tuple, as in Python
      at += 1;
      comma = true;
      space();
      if (at >= text.length) {
        break;
      }
      items.push(value());
      space();
    }
    if (at < text.length) {
      fail("something after the literal");
    }
    return comma ? ["tuple", items] : first;
  }

  // --- Python's repr, and packer.checking.feedback's _show ------------------------------------------------------
  var UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;
  function escaped(ch) {
    var code = ch.codePointAt(0);
    var hex = code.toString(16);
    if (code < 0x100) {
      return "\\x" + ("0" + hex).slice(-2);
    }
    return code < 0x10000 ? "\\u" + ("000" + hex).slice(-4) : "\\U" + ("0000000" + hex).slice(-8);
  }
  function reprString(s) {
    var quote = s.indexOf("'") >= 0 && s.indexOf('"') < 0 ? '"' : "'";
    var out = quote;
    Array.from(s).forEach(function (ch) {
      if (ch === quote || ch === "\\") {
        out += "\\" + ch;
      } else if (ch === "\n") {
        out += "\\n";
      } else if (ch === "\t") {
        out += "\\t";
      } else if (ch === "\r") {
        out += "\\r";
      } else if (ch !== " " && UNPRINTABLE.test(ch)) {
        out += escaped(ch);
      } else {
        out += ch;
      }
    });
    return out + quote;
  }
  function reprFloat(x) {
    if (!isFinite(x)) {
      return isNaN(x) ? "nan" : x > 0 ? "inf" : "-inf";
    }
    var parts = x.toExponential().split("e");  // the shortest digits that read back as x
    var exponent = parseInt(parts[1], 10);
    var sign = parts[0][0] === "-" ? "-" : "";
    var digits = parts[0].replace("-", "").replace(".", "");
    if (exponent < -4 || exponent >= 16) {
      var mantissa = digits.length > 1 ? digits[0] + "." + digits.slice(1) : digits;
      return sign + mantissa + "e" + (exponent < 0 ? "-" : "+") + ("0" + Math.abs(exponent)).slice(-2);
    }
    if (exponent < 0) {
      return sign + "0." + "0".repeat(-exponent - 1) + digits;
    }
    var whole = digits.length > exponent + 1 ? digits.slice(0, exponent + 1) : digits + "0".repeat(exponent + 1 - digits.length);
    var fraction = digits.slice(exponent + 1) || "0";
    return sign + whole + "." + fraction;
  }
  function repr(v) {
    switch (v[0]) {
      case "int":
        return String(v[1]);
      case "float":
        return reprFloat(v[1]);
      case "bool":
        return v[1] ? "True" : "False";
      case "None":
        return "None";
      case "str":
        return reprString(v[1]);
      case "list":
        return "[" + v[1].map(repr).join(", ") + "]";
      default:
        return "(" + v[1].map(repr).join(", ") + (v[1].length === 1 ? ",)" : ")");
    }
  }
  function distinct(text) {  // feedback.py's _distinct: strings that print alike are told apart by escapes
    if (text.normalize("NFC") === text) {
      return text;
    }
    return Array.from(text)
      .map(function (ch) {
        return /\p{M}/u.test(ch) || ch.normalize("NFC") !== ch ? escaped(ch) : ch;
      })
      .join("");
  }
  var SHOWN = 240;
  function show(v) {
    var text = Array.from(distinct(repr(v)));
    return text.length <= SHOWN ? text.join("") : text.slice(0, SHOWN - 1).join("") + "\u2026";
  }

  // --- judging, as packer.checking.compare and practice.kinds do ----------------------------------------------
  function same(a, b) {  // compare.plain: by content and by kind
    if (a[0] !== b[0]) {
      return false;
    }
    if (a[0] === "list" || a[0] === "tuple") {
      return a[1].length === b[1].length && a[1].every(function (item, i) {
        return same(item, b[1][i]);
      });
    }
    return a[0] === "None" || a[1] === b[1];
  }
  function article(name) {
    return ("aeio".indexOf(name[0]) >= 0 ? "an " : "a ") + name;
  }
  function typeDifference(wanted, v, where) {
    if (v[0] !== wanted.kind) {
      var kind = v[0] === "None" ? "None" : article(v[0]);
      return where ? where + " is " + kind + " (" + show(v) + "), not " + article(wanted.name) : "it returned " + kind;
    }
    var of = where ? " of " + where : "";
    var i;
    if (wanted.kind === "tuple" && wanted.parts.length) {
      if (v[1].length !== wanted.parts.length) {
        return (where || "it returned a tuple that") + " has " + v[1].length + " items, not " + wanted.parts.length;
      }
      for (i = 0; i < v[1].length; i += 1) {
        var found = typeDifference(wanted.parts[i], v[1][i], "item " + (i + 1) + of);
        if (found) {
          return found;
        }
      }
    }
    if (wanted.kind === "list" && wanted.parts.length) {
      for (i = 0; i < v[1].length; i += 1) {
        var differs = typeDifference(wanted.parts[0], v[1][i], "element " + (i + 1) + of);
        if (differs) {
          return differs;
        }
      }
    }
    return null;
  }
  function equal(a, b) {  // Python's ==: numbers (and bools) by value, a list never equal to a tuple
    var numbers = ["int", "float", "bool"];
    if (numbers.indexOf(a[0]) >= 0 && numbers.indexOf(b[0]) >= 0) {
      return Number(a[1]) === Number(b[1]);
    }
    if (a[0] !== b[0]) {
      return false;
    }
    if (a[0] === "list" || a[0] === "tuple") {
      return a[1].length === b[1].length && a[1].every(function (item, i) {
        return equal(item, b[1][i]);
      });
    }
    return a[0] === "None" || a[1] === b[1];
  }
  function items(v) {  // what Python's iteration gives: a sequence's items, a string's characters
    if (v[0] === "str") {
      return Array.from(v[1]).map(function (ch) { return ["str", ch]; });
    }
    return v[0] === "list" || v[0] === "tuple" ? v[1] : [];
  }
  function sortedReprs(v) {
    return items(v).map(repr).sort().join("\u0000") + "\u0000" + items(v).length;
  }
  function reordered(want, got) {  // sorted(map(repr, want)) == sorted(map(repr, got))
    return sortedReprs(want) === sortedReprs(got);
  }
  function itemsHint(expected, v) {  // compare._predict_hint
    if (expected[0] !== "tuple" || expected[1].length < 2) {
      return "not the result";
    }
    var verdicts = expected[1].slice(0, items(v).length).map(function (want, i) {
      var got = items(v)[i];
      if (equal(want, got)) {
        return "item " + (i + 1) + " is right";
      }
      return want[0] === "list" && reordered(want, got) ? "item " + (i + 1) + " has the right elements in the wrong order" : "item " + (i + 1) + " is wrong";
    });
    if (verdicts.every(function (verdict) { return /is wrong$/.test(verdict); })) {
      return "not the result: " + (verdicts.length === 2 ? "both items are wrong" : "all " + verdicts.length + " items are wrong");
    }
    return "not the result: " + verdicts.join(", ");
  }
  function hint(expected, v) {  // kinds._prediction_hint
    if (expected[0] === "list") {
      if (reordered(expected, v)) {
        return "not the result: the right elements in the wrong order";
      }
      if (items(v).length !== expected[1].length) {
        return "not the result: the number of items is wrong";
      }
      return itemsHint(["tuple", expected[1]], ["tuple", items(v)]);
    }
    return itemsHint(expected, v);
  }
  function shows(wrong, v, expected) {  // kinds._shows
    if (same(wrong, v)) {
      return true;
    }
    if (!(expected[0] === "tuple" && wrong[0] === "tuple" && v[0] === "tuple" && wrong[1].length === expected[1].length && v[1].length === expected[1].length)) {
      return false;
    }
    var departs = [];
    wrong[1].forEach(function (bad, i) {
      if (!same(bad, expected[1][i])) {
        departs.push(i);
      }
    });
    return departs.length > 0 && departs.every(function (i) { return same(v[1][i], wrong[1][i]); });
  }
  // What check_prediction says to the reader's `text` (the lines of its Feedback).
  function judge(data, text) {
    var head = "Practice " + data.number + " (predict): ";
    if (!text.trim()) {
      return head + data.words.not_answered + "\n  write your prediction in the box, then press Check";
    }
    var v;
    try {
      v = parse(text);
    } catch (error) {
      if (!(error instanceof LiteralError)) {
        throw error;
      }
      return head + data.words.not_yet + "\n  the page could not read this as a Python literal: " + error.message;
    }
    var difference = typeDifference(data.type, v, "your prediction");
    if (difference) {
      return [head + data.words.not_yet, "  wrong type: " + difference, "  yours:    " + show(v)].join("\n");
    }
    if (same(v, data.expected)) {
      return head + data.words.right;
    }
    for (var k = 0; k < data.known.length; k += 1) {  // a listed wrong value: the kernel's own words, as built
      if (same(v, data.known[k][0])) {
        return data.known[k][1];
      }
    }
    var lines = [head + data.words.not_yet, "  " + hint(data.expected, v) + " " + data.words.note, "  yours:    " + show(v)];
    data.misconceptions.forEach(function (pair) {
      if (shows(pair[0], v, data.expected)) {
        lines.push("  " + pair[1]);
      }
    });
    return lines.join("\n");
  }

  // --- the forms ---------------------------------------------------------------------------------------------
  function answer(form, data) {
    if (data.kind === "choose") {
      var picked = form.querySelector("input[type=radio]:checked");
      return picked ? data.said[picked.value] : data.none;
    }
    return judge(data, form.querySelector(".site-practice-answer").value);
  }
  var forms = {};
  document.querySelectorAll("form.site-practice").forEach(function (form) {
    var data = JSON.parse(form.getAttribute("data-check"));
    var said = form.querySelector("[role=status]");
    forms[form.getAttribute("data-practice")] = data;
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      said.textContent = "";  // a status said again (the same answer checked twice) is announced again
      window.setTimeout(function () {
        said.textContent = answer(form, data);
      }, 50);
    });
  });
  // For the browser tests: what the page says to an answer, without typing it.
  window.workbookPractice = {
    judge: function (pid, text) {
      return judge(forms[pid], text);
    },
  };
})();
