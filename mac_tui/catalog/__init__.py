"""The rules tables of data/*.toml, loaded once into frozen attrs records and validated."""

from .load import (
    CONTESTED,
    LOCATION_ORDER,
    SIZES,
    UNIVERSAL,
    Catalog,
    catalog,
    data_dir,
    load_catalog,
)
from .schema import DataError

__all__ = [
    "CONTESTED",
    "LOCATION_ORDER",
    "SIZES",
    "UNIVERSAL",
    "Catalog",
    "DataError",
    "catalog",
    "data_dir",
    "load_catalog",
]
