"""The Parts workspace: the parts picker (table model, filters), the build panel and header, the findings, and the
custom-part dialog."""
