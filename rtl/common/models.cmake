# common cells models (filled in by the common-cells work)
