"""The one error type file handling raises. Its message is written for the user, in one line."""


class BuildFileError(ValueError):
    def __init__(self, path: object, message: str) -> None:
        self.path = str(path)
        self.message = message
        super().__init__(f"{self.path}: {message}")
