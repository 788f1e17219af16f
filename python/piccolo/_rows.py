"""Rows: what the studies (select, compare, vary, accuracy) and traces return."""


class Rows(list):
    """A list of dicts, one per row, with the fields of the matching CLI JSON output.

    ``meta`` holds what is true of every row (the machine, the notes, ...); its keys are also
    readable as attributes (``rows.notes``). ``to_pandas()`` gives a DataFrame when pandas is
    installed.
    """

    def __init__(self, rows=(), meta=None):
        super().__init__(rows)
        self.meta = dict(meta or {})

    def __getattr__(self, name):
        meta = self.__dict__.get("meta", {})
        if name in meta:
            return meta[name]
        raise AttributeError(f"Rows has no attribute or meta key {name!r}")

    def to_pandas(self):
        """The rows as a pandas DataFrame (one column per field; meta in ``DataFrame.attrs``)."""
        try:
            import pandas
        except ImportError as e:
            raise ImportError(
                "Rows.to_pandas() needs pandas (Debian: apt-get install python3-pandas); "
                "the rows themselves are a list of dicts"
            ) from e
        frame = pandas.DataFrame(list(self))
        frame.attrs.update(self.meta)
        return frame

    def __repr__(self):
        return f"<piccolo.Rows: {len(self)} rows, meta keys {sorted(self.meta)}>"
