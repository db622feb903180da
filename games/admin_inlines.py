"""What every inline of the admin shares: a bound on the rows one post may send."""

# The most rows an inline accepts in one post: Django otherwise builds up to 1000 forms more
# than the page shows, from the client's TOTAL_FORMS (100 000 took 13 to 37 s of a worker,
# depending on the inline). A record has a handful of credits and at most one summary per
# language; a game's copies and its contents' lines are counted in tens.
MAX_INLINE_ROWS = 50
MAX_COPY_ROWS = 100


class BoundedInlineMixin:
    """An inline that refuses more rows than its ``max_num`` (Django's "Please submit at
    most N forms"), before building them."""

    max_num = MAX_INLINE_ROWS

    def get_formset(self, request, obj=None, **kwargs):
        kwargs.setdefault("absolute_max", self.max_num)
        return super().get_formset(request, obj, **kwargs)
