"""The rules tables of data/*.toml, loaded once into frozen attrs records and validated."""

from .load import (
    CONTESTED,
    LOCATION_ORDER,
    SIZES,
    UNIVERSAL,
    Catalog,
    catalog,
    data_dir,
    installed_catalog,
    load_catalog,
    per_catalog,
    use_catalog,
)
from .mods import check_mod
from .schema import DataError

__all__ = [
    "CONTESTED",
    "LOCATION_ORDER",
    "SIZES",
    "UNIVERSAL",
    "Catalog",
    "DataError",
    "catalog",
    "check_mod",
    "data_dir",
    "installed_catalog",
    "load_catalog",
    "per_catalog",
    "use_catalog",
]
