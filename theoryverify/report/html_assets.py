"""The inline style sheet and script of the HTML report page (:mod:`.html`).

Kept apart from the page builder so that each reads as one thing.  Both are plain text embedded in the page:
the page loads nothing from a server or the network.  The script does two things only: hide the cards whose
class or status is unticked in the filters (and say how many are shown), and show a card the address points
at (``#claim-…``, e.g. from the location index) even when a filter hides it.
"""

STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; max-width: 60rem; margin: 1rem auto; padding: 0 1rem; color: #222; }
h1 { font-size: 1.5rem; } h2 { font-size: 1.2rem; border-bottom: 1px solid #ccc; margin-top: 2rem; }
table { border-collapse: collapse; } td, th { border: 1px solid #ddd; padding: .2rem .5rem; text-align: left;
  vertical-align: top; }
code, pre { font: 13px/1.35 ui-monospace, monospace; } pre { white-space: pre-wrap; overflow-wrap: anywhere; }
.run { color: #555; font-size: .9rem; } .filters fieldset { display: inline-block; margin: 0 1rem .5rem 0; }
.filters label { margin-right: .8rem; white-space: nowrap; }
article.card { border: 1px solid #ccc; border-left: 6px solid #999; border-radius: 4px; padding: .5rem 1rem;
  margin: 1rem 0; }
article.card[hidden] { display: none; }
article.card:target { box-shadow: 0 0 0 3px #f2c94c; }
article.card[data-class=erratum] { border-left-color: #c0392b; }
article.card[data-class=proof_gap], article.card[data-class=typo] { border-left-color: #e67e22; }
article.card[data-class=reading], article.card[data-class=reconstruction],
article.card[data-class=not_reproducible] { border-left-color: #8e44ad; }
article.card[data-class=unclassified] { border-left-color: #000; }
article.card[data-status=proved], article.card[data-status=holds] { border-left-color: #27ae60; }
.card h3 { font-size: 1.05rem; margin: .2rem 0; } .card .loc { font-weight: 600; }
.card blockquote { margin: .4rem 0; padding-left: .8rem; border-left: 3px solid #ddd; color: #333; }
.card .wrong { font-weight: 600; } .card dt { font-weight: 600; margin-top: .4rem; } .card dd { margin-left: 1rem; }
.badge { display: inline-block; padding: 0 .4rem; border-radius: 3px; background: #eee; font-size: .85rem; }
.card img { max-width: 100%; display: block; margin: .5rem 0; }
"""

SCRIPT = """
(function () {
  function ticked(name) {
    var on = {};
    document.querySelectorAll('input[data-filter="' + name + '"]').forEach(function (box) {
      if (box.checked) { on[box.value] = true; }
    });
    return on;
  }
  function apply() {
    var classes = ticked('class'), statuses = ticked('status'), shown = 0;
    document.querySelectorAll('article.card').forEach(function (card) {
      var visible = !!classes[card.dataset.class] && !!statuses[card.dataset.status];
      card.hidden = !visible;
      if (visible) { shown += 1; }
    });
    var count = document.getElementById('shown-count');
    if (count) { count.textContent = String(shown); }
  }
  function reveal() {
    if (!location.hash) { return; }
    var target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
    var card = target && target.closest('article.card');
    if (card && card.hidden) { card.hidden = false; }
  }
  document.querySelectorAll('input[data-filter]').forEach(function (box) {
    box.addEventListener('change', apply);
  });
  window.addEventListener('hashchange', reveal);
  apply();
  reveal();
})();
"""
