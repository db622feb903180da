// Search-as-you-type: the catalogue's titles offered under any search box that names
// the suggestion endpoint (data-suggest-url). A plain <datalist>: the browser draws the
// list and handles the keyboard and screen readers; this script only fills it.
(function () {
  "use strict";

  var DELAY_MS = 150;
  var MIN_LENGTH = 2;

  function attach(input) {
    var list = document.createElement("datalist");
    list.id = input.id + "-suggestions";
    input.insertAdjacentElement("afterend", list);
    input.setAttribute("list", list.id);
    input.setAttribute("autocomplete", "off");

    var timer = null;
    var pending = null;
    var lastQuery = "";

    function show(suggestions) {
      var options = document.createDocumentFragment();
      suggestions.forEach(function (suggestion) {
        var option = document.createElement("option");
        option.value = suggestion.title;
        options.appendChild(option);
      });
      list.replaceChildren(options);
    }

    function ask(query) {
      if (pending) {
        pending.abort();
      }
      pending = new AbortController();
      var url = input.dataset.suggestUrl + "?q=" + encodeURIComponent(query);
      fetch(url, { headers: { Accept: "application/json" }, signal: pending.signal })
        .then(function (response) {
          return response.ok ? response.json() : [];
        })
        .then(show)
        .catch(function () {
          // An aborted or failed request leaves the box as it is: typing still works.
        });
    }

    input.addEventListener("input", function () {
      var query = input.value.trim();
      window.clearTimeout(timer);
      if (query === lastQuery) {
        return;
      }
      lastQuery = query;
      if (query.length < MIN_LENGTH) {
        show([]);
        return;
      }
      timer = window.setTimeout(function () {
        ask(query);
      }, DELAY_MS);
    });
  }

  document.querySelectorAll("input[data-suggest-url]").forEach(attach);
})();
