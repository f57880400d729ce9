"""Where every individual came from: births, the bounded lineage record, origins of
rows, and what variation did to fitness.
"""
